package protocols.dubbo;

import java.util.Objects;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcRequest;
import protocols.rpc.StreamTally;

/**
 * {@code dubbo("name").service(OrderService.class).version("1.0.0").group("eu")}: an interface on the
 * classpath, waiting for the method to call. Immutable.
 */
public final class DubboService<S> {
  private final String name;
  private final Class<S> type;
  private final String version;
  private final String group;
  /** Whose protocol the requests go through: the dubbo protocol's or Triple's. */
  private final RpcProtocolKey<?> key;

  DubboService(String name, Class<S> type, String version, String group) {
    this(name, type, version, group, DubboProtocol.KEY);
  }

  DubboService(String name, Class<S> type, String version, String group, RpcProtocolKey<?> key) {
    if (!type.isInterface()) {
      throw new IllegalArgumentException(type.getName() + " is not an interface");
    }
    this.name = name;
    this.type = type;
    this.version = Objects.requireNonNull(version, "version");
    this.group = Objects.requireNonNull(group, "group");
    this.key = Objects.requireNonNull(key, "key");
  }

  /** The provider's version (Dubbo's {@code version}); none by default. */
  public DubboService<S> version(String newVersion) {
    return new DubboService<>(name, type, newVersion, group, key);
  }

  /** The provider's group (Dubbo's {@code group}); none by default. */
  public DubboService<S> group(String newGroup) {
    return new DubboService<>(name, type, version, newGroup, key);
  }

  /** A method with a blocking signature: {@code .call((OrderService s, Order o) -> s.place(o))}. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> call(DubboMethod.Blocking<S, Req, Resp> method) {
    return RpcRequest.of(key, name, new DubboMethod<>(this, Objects.requireNonNull(method), null));
  }

  /** A method with a {@code CompletableFuture} signature: {@code .callAsync((OrderService s, Order o) -> s.placeAsync(o))}. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> callAsync(DubboMethod.Async<S, Req, Resp> method) {
    return RpcRequest.of(key, name, new DubboMethod<>(this, null, Objects.requireNonNull(method)));
  }

  /** Both signatures of one method: the blocking one in sync mode, the future in async mode. */
  public <Req, Resp> RpcRequest<DubboClient, Req, Resp> call(DubboMethod.Blocking<S, Req, Resp> blocking,
                                                              DubboMethod.Async<S, Req, Resp> async) {
    return RpcRequest.of(key, name, new DubboMethod<>(this, blocking, async));
  }

  /** Triple: a server-streaming method, {@code .serverStream(MobileService::watch)}. */
  public <Req, Resp> TripleStreamRequest<S, Req, Resp> serverStream(TripleStream.ServerStream<S, Req, Resp> method) {
    return TripleStreamRequest.of(name, triple(), StreamTally.Kind.SERVER, Objects.requireNonNull(method), null);
  }

  /** Triple: a client-streaming method, {@code .clientStream(MobileService::upload)}. */
  public <Req, Resp> TripleStreamRequest<S, Req, Resp> clientStream(TripleStream.Opening<S, Req, Resp> method) {
    return TripleStreamRequest.of(name, triple(), StreamTally.Kind.CLIENT, null, Objects.requireNonNull(method));
  }

  /** Triple: a bidirectional method, {@code .bidiStream(MobileService::chat)}. */
  public <Req, Resp> TripleStreamRequest<S, Req, Resp> bidiStream(TripleStream.Opening<S, Req, Resp> method) {
    return TripleStreamRequest.of(name, triple(), StreamTally.Kind.BIDI, null, Objects.requireNonNull(method));
  }

  /** This service, if its requests go over Triple: streams are Triple's, the dubbo protocol has none. */
  private DubboService<S> triple() {
    if (key != TripleProtocol.KEY) {
      throw new IllegalArgumentException(type.getSimpleName() + ": streams go over Triple, not the dubbo protocol:"
          + " triple(\"" + name + "\").service(" + type.getSimpleName() + ".class)");
    }
    return this;
  }

  S proxy(DubboClient client) {
    return client.reference(type, version, group);
  }

  /** With -Ddubbo.client=loops, a proxy per connection, each on its Gatling loop; else none. */
  java.util.List<S> onLoops(DubboClient client) {
    return client.onLoops(type, version, group);
  }

  /**
   * Callback mode: a caller of {@code method} (its interface method found by calling it once on a
   * recording proxy) through a reference with Dubbo's event notification, and its notifier.
   */
  DubboClient.Notifying<S> notifying(DubboClient client, DubboMethod.Blocking<S, ?, ?> method) {
    return client.notifying(type, version, group, methodName(method));
  }

  /** The interface method {@code method} calls: the first one it calls on a proxy that records, given null. */
  private <Req> String methodName(DubboMethod.Blocking<S, Req, ?> method) {
    java.util.concurrent.atomic.AtomicReference<String> called = new java.util.concurrent.atomic.AtomicReference<>();
    S recorder = type.cast(java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, m, args) -> {
          called.compareAndSet(null, m.getName());
          Class<?> r = m.getReturnType();
          return r.isPrimitive() && r != void.class ? java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(r, 1), 0)
              : null;
        }));
    try {
      method.call(recorder, null);
    } catch (Exception e) {
      // a lambda that reads its request before the call cannot be probed with null: said below
    }
    if (called.get() == null) {
      throw new IllegalArgumentException("callback mode on " + type.getSimpleName() + ": could not tell which method"
          + " request '" + name + "' calls (its lambda must call one method of the interface with the request)");
    }
    return called.get();
  }
}
