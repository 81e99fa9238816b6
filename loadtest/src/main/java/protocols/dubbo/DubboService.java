package protocols.dubbo;

import java.util.Objects;
import protocols.rpc.RpcRequest;

/**
 * {@code dubbo("name").service(OrderService.class).version("1.0.0").group("eu")}: an interface on the
 * classpath, waiting for the method to call. Immutable.
 */
public final class DubboService<S> {
  private final String name;
  private final Class<S> type;
  private final String version;
  private final String group;

  DubboService(String name, Class<S> type, String version, String group) {
    if (!type.isInterface()) {
      throw new IllegalArgumentException(type.getName() + " is not an interface");
    }
    this.name = name;
    this.type = type;
    this.version = Objects.requireNonNull(version, "version");
    this.group = Objects.requireNonNull(group, "group");
  }

  /** The provider's version (Dubbo's {@code version}); none by default. */
  public DubboService<S> version(String newVersion) {
    return new DubboService<>(name, type, newVersion, group);
  }

  /** The provider's group (Dubbo's {@code group}); none by default. */
  public DubboService<S> group(String newGroup) {
    return new DubboService<>(name, type, version, newGroup);
  }

  /** A method with a blocking signature: {@code .call((OrderService s, Order o) -> s.place(o))}. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> call(DubboMethod.Blocking<S, Req, Resp> method) {
    return RpcRequest.of(DubboProtocol.KEY, name, new DubboMethod<>(this, Objects.requireNonNull(method), null, null));
  }

  /** A method with a {@code CompletableFuture} signature: {@code .callAsync((OrderService s, Order o) -> s.placeAsync(o))}. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> callAsync(DubboMethod.Async<S, Req, Resp> method) {
    return RpcRequest.of(DubboProtocol.KEY, name, new DubboMethod<>(this, null, Objects.requireNonNull(method), null));
  }

  /** Both signatures of one method: the blocking one in sync mode, the future in async mode. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> call(DubboMethod.Blocking<S, Req, Resp> blocking,
                                                              DubboMethod.Async<S, Req, Resp> async) {
    return RpcRequest.of(DubboProtocol.KEY, name, new DubboMethod<>(this, blocking, async, null));
  }

  S proxy(DubboClient client) {
    return client.reference(type, version, group);
  }
}
