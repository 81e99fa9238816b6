package protocols.dubbo;

import contract.SampleOrder;
import contract.dubbo.DubboSerialization;
import contract.dubbo.MobileService;
import contract.pojo.Order;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import protocols.rpc.RpcSettings;

/**
 * The Dubbo DSL, in Gatling's style: {@code dubbo} is the protocol;
 * {@code dubbo("name").service(OrderService.class).call(...)} calls a method of your interface,
 * {@code dubbo("name").generic("com.example.OrderService").method(...)} one without its classes.
 */
public final class DubboDsl {
  /** The protocol builder, with Dubbo's defaults (127.0.0.1:20880, hessian2, async). */
  public static final DubboProtocol dubbo = new DubboProtocol(RpcSettings.defaults(20880), DubboSerialization.DEFAULT);

  /** Dubbo over Triple, with its defaults (127.0.0.1:50052, async): the requests of {@link #triple(String)}. */
  public static final TripleProtocol triple = new TripleProtocol(RpcSettings.defaults(50052));

  private DubboDsl() {}

  /**
   * A request over Triple named {@code name}; then the interface Dubbo's protoc plugin generated:
   * {@code triple("echo").service(MobileService.class).call(MobileService::hello, MobileService::helloAsync)}.
   */
  public static TripleNamed triple(String name) {
    return () -> name;
  }

  /** A named Triple request waiting for its service. */
  @FunctionalInterface
  public interface TripleNamed {
    String name();

    /** A generated Triple interface on the classpath; then {@code .call(...)} one of its methods. */
    default <S> DubboService<S> service(Class<S> type) {
      return new DubboService<>(name(), type, "", "", TripleProtocol.KEY);
    }
  }

  /** A request named {@code name} (Gatling EL allowed); then say which service. */
  public static Named dubbo(String name) {
    return () -> name;
  }

  /** A named Dubbo request waiting for its service. */
  @FunctionalInterface
  public interface Named {
    String name();

    /** An interface on the classpath; then {@code .call(...)} or {@code .callAsync(...)} one of its methods. */
    default <S> DubboService<S> service(Class<S> type) {
      return new DubboService<>(name(), type, "", "");
    }

    /** A service by its interface's name, through Dubbo's generic invocation. */
    default DubboGeneric generic(String serviceName) {
      return new DubboGeneric(name(), serviceName, "", "");
    }
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return SampleOrder.make(Order::new, orderId, name);
  }
}
