package protocols.core;

import io.gatling.javaapi.core.ActionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * What an echo run needs to know of one framework: its server, its protocol as the -D parameters
 * configure it, its request and its sample order. Each framework's DSL holds one ({@code ECHO});
 * the simulations, the shootout and the plain driver all work from it. Immutable.
 *
 * @param <Req> the framework's Order type
 */
public final class EchoFramework<Req> {
  private final String name;
  private final String serverMainClass;
  private final Function<LoadParams, RpcProtocolBuilder<?>> protocol;
  private final Function<String, RpcRequestBuilder<Req, Req>> request;
  private final OrderMaker<Req> order;
  private final Function<LoadParams, List<String>> serverArgs;
  private final String maxMessageFlag;

  private EchoFramework(String name, String serverMainClass, String maxMessageFlag,
                        Function<LoadParams, RpcProtocolBuilder<?>> protocol,
                        Function<String, RpcRequestBuilder<Req, Req>> request, OrderMaker<Req> order,
                        Function<LoadParams, List<String>> serverArgs) {
    this.name = Objects.requireNonNull(name);
    this.serverMainClass = Objects.requireNonNull(serverMainClass);
    this.maxMessageFlag = Objects.requireNonNull(maxMessageFlag);
    this.protocol = Objects.requireNonNull(protocol);
    this.request = Objects.requireNonNull(request);
    this.order = Objects.requireNonNull(order);
    this.serverArgs = Objects.requireNonNull(serverArgs);
  }

  /**
   * @param name short name: request names, -Dframeworks, -Dtarget.NAME
   * @param serverMainClass the echo server, started in its own JVM when there is no target
   * @param maxMessageFlag the server's flag for its size limit, set from -DmaxMessageBytes
   * @param protocol the protocol builder with the framework's own -D parameters applied
   * @param request a request of the given name
   * @param order the write-ups' sample order with the given id and name
   */
  public static <Req> EchoFramework<Req> of(String name, String serverMainClass, String maxMessageFlag,
                                            Function<LoadParams, RpcProtocolBuilder<?>> protocol,
                                            Function<String, RpcRequestBuilder<Req, Req>> request,
                                            OrderMaker<Req> order) {
    return new EchoFramework<>(name, serverMainClass, maxMessageFlag, protocol, request, order, p -> List.of());
  }

  /** The embedded server's framework flags from the -D parameters (e.g. Dubbo's serialization). */
  public EchoFramework<Req> withServerArgs(Function<LoadParams, List<String>> args) {
    return new EchoFramework<>(name, serverMainClass, maxMessageFlag, protocol, request, order, args);
  }

  public String name() {
    return name;
  }

  public String serverMainClass() {
    return serverMainClass;
  }

  /** The embedded server's flags: the framework's own, -DmaxMessageBytes's and -DserverDelayUs's. */
  public List<String> serverArgs(LoadParams params) {
    List<String> args = new ArrayList<>(serverArgs.apply(params));
    params.maxMessageBytes().ifPresent(bytes -> args.addAll(List.of(maxMessageFlag, Integer.toString(bytes))));
    params.serverDelayUs().ifPresent(us -> args.addAll(List.of("--delay-us", Integer.toString(us))));
    return List.copyOf(args);
  }

  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return protocol.apply(params);
  }

  /** The protocol with every shared -D parameter, the target and {@code mode} applied. */
  public RpcProtocolBuilder<?> configured(LoadParams params, HostPort target, InvocationMode mode) {
    return protocol(params).target(target.host(), target.port()).timeout(params.timeout()).mode(mode)
        .syncThreads(params.syncThreads()).connections(params.connections()).koPause(params.koPause())
        .maxMessageBytes(params.maxMessageBytes().orElse(0));
  }

  /** A client as {@link #configured} but with {@code timeout}, outside Gatling (the probe, the plain driver). */
  @SuppressWarnings("unchecked")
  public RpcClient<Req, Req> newClient(LoadParams params, HostPort target, InvocationMode mode, Duration timeout) {
    return ((RpcProtocol<Req, Req>) configured(params, target, mode).timeout(timeout).protocol()).newClient();
  }

  /** The write-ups' sample order with the given id, its name as -DorderNameChars sets it. */
  public Req order(long orderId, LoadParams params) {
    return order.make(orderId, params.orderName());
  }

  /** The echo call every level makes: a fresh order id per call, so no reply can be cached. */
  public ActionBuilder echoCall(String requestName, LoadParams params) {
    String name = params.orderName();
    return request.apply(requestName).hello(session -> order.make(ThreadLocalRandom.current().nextLong(), name));
  }

  /** A framework's sample order: {@code DubboDsl::order}. */
  @FunctionalInterface
  public interface OrderMaker<Req> {
    Req make(long orderId, String name);
  }
}
