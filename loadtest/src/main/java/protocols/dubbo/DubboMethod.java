package protocols.dubbo;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import org.apache.dubbo.rpc.RpcContext;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcMethod;

/**
 * A method of a Java interface, called through Dubbo's proxy of it: a lambda with the interface's
 * blocking signature, its {@code CompletableFuture} one, or both. Without the async one, async mode
 * makes the blocking signature async with Dubbo's {@code RpcContext.asyncCall}; without the blocking
 * one, sync mode waits for the future on the sync pool. Immutable.
 */
record DubboMethod<S, Req, Resp>(DubboService<S> service, Blocking<S, Req, Resp> blocking,
                                 Async<S, Req, Resp> async, S proxy, List<S> onLoops, S notifying,
                                 DubboNotifier notifier, boolean enforcesTimeout)
    implements RpcMethod<DubboClient, Req, Resp> {

  DubboMethod(DubboService<S> service, Blocking<S, Req, Resp> blocking, Async<S, Req, Resp> async) {
    this(service, blocking, async, null, List.of(), null, null, false);
  }

  /**
   * The dubbo protocol's consumer times every call out itself (the reference's {@code timeout}, on
   * Dubbo's own timer wheel), so the core adds no timer of its own; over Triple the core's timer stays.
   */
  @Override
  public RpcMethod<DubboClient, Req, Resp> prepare(DubboClient client) {
    boolean ownTimeout = !client.triple();
    if (client.mode() == InvocationMode.CALLBACK && blocking != null && !client.triple()) {
      DubboClient.Notifying<S> n = service.notifying(client, blocking);
      return new DubboMethod<>(service, blocking, async, service.proxy(client), List.of(), n.caller(), n.notifier(),
          ownTimeout);
    }
    List<S> onLoops = service.onLoops(client);
    return new DubboMethod<>(service, blocking, async, onLoops.isEmpty() ? service.proxy(client) : null, onLoops,
        null, null, ownTimeout);
  }

  /** The proxy a call takes: with -Ddubbo.client=loops, the calling loop's own; else the one. */
  private S target(DubboClient client) {
    return onLoops.isEmpty() ? proxy : onLoops.get(client.proxyFor(onLoops.size()));
  }

  /**
   * Callback mode: Dubbo's event notification, the blocking signature on a reference whose method is
   * async with onreturn/onthrow; without a blocking signature, the future's whenComplete.
   */
  @Override
  @SuppressWarnings("unchecked")
  public void callWithCallback(DubboClient client, Req request, BiConsumer<? super Resp, ? super Throwable> done) {
    if (notifier == null) {
      RpcMethod.super.callWithCallback(client, request, done);
      return;
    }
    try {
      notifier.making((reply, error) -> done.accept((Resp) reply, error), () -> blocking.call(notifying, request));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      done.accept(null, e);
    }
  }

  @Override
  public CompletionStage<Resp> callAsync(DubboClient client, Req request) {
    S target = target(client);
    if (async != null) {
      return async.call(target, request);
    }
    return RpcContext.getClientAttachment().asyncCall(() -> blocking.call(target, request));
  }

  @Override
  public Resp callSync(DubboClient client, Req request, long timeoutMillis) throws Exception {
    return blocking != null ? blocking.call(target(client), request)
        : RpcMethod.super.callSync(client, request, timeoutMillis);
  }

  /** A method with the interface's blocking signature, e.g. {@code (MobileService s, Order o) -> s.hello(o)}. */
  @FunctionalInterface
  public interface Blocking<S, Req, Resp> {
    Resp call(S service, Req request) throws Exception;
  }

  /** A method with a {@code CompletableFuture} signature, e.g. {@code (MobileService s, Order o) -> s.helloAsync(o)}. */
  @FunctionalInterface
  public interface Async<S, Req, Resp> {
    CompletableFuture<Resp> call(S service, Req request);
  }
}
