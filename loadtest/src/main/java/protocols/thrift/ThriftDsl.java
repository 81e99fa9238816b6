package protocols.thrift;

import contract.SampleOrder;
import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.async.TAsyncClient;
import protocols.rpc.RpcSettings;

/**
 * The Thrift DSL: {@code thrift} is the protocol;
 * {@code thrift("name").client(OrderService.AsyncClient.class).call((c, req, reply) -> c.place(req, reply))}
 * calls a method of your generated service.
 */
public final class ThriftDsl {
  /** The protocol builder, with Thrift's defaults (127.0.0.1:9090, binary, async). */
  public static final ThriftProtocol thrift = new ThriftProtocol(RpcSettings.defaults(9090), WireProtocols.DEFAULT);

  private ThriftDsl() {}

  /** A request named {@code name} (Gatling EL allowed); then say which client. */
  public static Named thrift(String name) {
    return () -> name;
  }

  /** A named Thrift request waiting for its client class. */
  @FunctionalInterface
  public interface Named {
    String name();

    /** The generated async client of your service, e.g. {@code OrderService.AsyncClient.class}. */
    default <A extends TAsyncClient> ThriftMethod.Client<A> client(Class<A> asyncClient) {
      return new ThriftMethod.Client<>(name(), asyncClient);
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
