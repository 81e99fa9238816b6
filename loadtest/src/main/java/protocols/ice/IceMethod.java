package protocols.ice;

import com.zeroc.Ice.ObjectPrx;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;

/**
 * An operation on an Ice object through its typed proxy: {@code ice("name").proxy("orders",
 * OrderServicePrx::uncheckedCast).call((prx, order) -> prx.placeAsync(order))}. Without a blocking
 * form ({@link IceRequest#blocking}), sync mode waits for the async call on the sync pool. Immutable.
 */
record IceMethod<P, Req, Resp>(String identity, Function<ObjectPrx, P> cast, Async<P, Req, Resp> async,
                               Blocking<P, Req, Resp> blocking, Object[] proxies)
    implements RpcMethod<IceClient, Req, Resp> {

  @Override
  public RpcMethod<IceClient, Req, Resp> prepare(IceClient client) {
    ObjectPrx[] base = client.proxies(identity);
    Object[] typed = new Object[base.length];
    for (int i = 0; i < base.length; i++) {
      typed[i] = Objects.requireNonNull(cast.apply(base[i]), "the proxy cast returned null");
    }
    return new IceMethod<>(identity, cast, async, blocking, typed);
  }

  @SuppressWarnings("unchecked")
  private P proxy(IceClient client) {
    return (P) client.pick(proxies);
  }

  @Override
  public CompletionStage<Resp> callAsync(IceClient client, Req request) {
    return async.call(proxy(client), request);
  }

  @Override
  public Resp callSync(IceClient client, Req request, long timeoutMillis) throws Exception {
    return blocking == null ? RpcMethod.super.callSync(client, request, timeoutMillis)
        : blocking.call(proxy(client), request);
  }

  /** An operation's async form on the typed proxy: {@code (prx, req) -> prx.someOpAsync(req)}. */
  @FunctionalInterface
  public interface Async<P, Req, Resp> {
    CompletableFuture<Resp> call(P proxy, Req request);
  }

  /** The same operation's blocking form: {@code (prx, req) -> prx.someOp(req)}. */
  @FunctionalInterface
  public interface Blocking<P, Req, Resp> {
    Resp call(P proxy, Req request) throws Exception;
  }

  /** An Ice object, by identity and the cast to its typed proxy, waiting for the operation. Immutable. */
  public static final class Proxy<P> {
    private final String name;
    private final String identity;
    private final Function<ObjectPrx, P> cast;

    Proxy(String name, String identity, Function<ObjectPrx, P> cast) {
      this.name = name;
      this.identity = Objects.requireNonNull(identity, "identity");
      this.cast = Objects.requireNonNull(cast, "cast");
    }

    /** The operation, async: {@code (prx, req) -> prx.someOpAsync(req)}. */
    public <Req, Resp> IceRequest<P, Req, Resp> call(Async<P, Req, Resp> call) {
      return new IceRequest<>(name, new IceMethod<>(identity, cast, Objects.requireNonNull(call), null, null));
    }
  }

  /** A request to an Ice operation; {@link #blocking} adds its blocking form for sync mode. Immutable. */
  public static final class IceRequest<P, Req, Resp> extends RpcRequest<IceClient, Req, Resp> {
    private final IceMethod<P, Req, Resp> method;

    IceRequest(String name, IceMethod<P, Req, Resp> method) {
      super(IceProtocol.KEY, name);
      this.method = method;
    }

    /** The operation's blocking form, for sync mode: {@code (prx, req) -> prx.someOp(req)}. */
    public IceRequest<P, Req, Resp> blocking(Blocking<P, Req, Resp> call) {
      return new IceRequest<>(name(), new IceMethod<>(method.identity, method.cast, method.async, call, null));
    }

    @Override
    protected RpcMethod<IceClient, Req, Resp> method() {
      return method;
    }
  }
}
