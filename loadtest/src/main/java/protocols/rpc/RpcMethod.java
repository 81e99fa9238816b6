package protocols.rpc;

import io.gatling.core.session.Session;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * One method of a service, as a framework adapter calls it on its client {@code C}: the framework's
 * async API and its blocking one. Immutable.
 *
 * @param <C> the framework's client
 * @param <Req> what the call is given (a message, an argument, a JSON text)
 * @param <Resp> what the call returns
 */
public interface RpcMethod<C extends RpcClient, Req, Resp> {

  /** Starts the call without blocking the caller; the stage completes on a framework thread. */
  CompletionStage<Resp> callAsync(C client, Req request);

  /**
   * The framework's callback API for this call, in callback mode: {@code done} is called once, with
   * the reply or the error, on a framework thread. By default the async call's stage completes into
   * it: the same path as async mode, for frameworks whose only async API is a future (or whose
   * futures are made from their callbacks). Say which in {@link RpcProtocol#callbackApi}.
   */
  default void callWithCallback(C client, Req request, BiConsumer<? super Resp, ? super Throwable> done) {
    callAsync(client, request).whenComplete(done);
  }

  /**
   * Starts the call in {@code mode}'s non-blocking form (callback mode: {@link #callWithCallback},
   * else {@link #callAsync}). Never throws: a call that could not start is a failed future.
   */
  default CompletableFuture<Resp> start(C client, Req request, InvocationMode mode) {
    try {
      if (mode != InvocationMode.CALLBACK) {
        return callAsync(client, request).toCompletableFuture();
      }
      CompletableFuture<Resp> reply = new CompletableFuture<>();
      callWithCallback(client, request, (value, error) -> {
        if (error != null) {
          reply.completeExceptionally(error);
        } else {
          reply.complete(value);
        }
      });
      return reply;
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The framework's blocking call; runs on the core's sync pool, never on a Gatling event loop. By
   * default the async call, waited for: for a method whose framework has no blocking form of it.
   */
  default Resp callSync(C client, Req request, long timeoutMillis) throws Exception {
    CompletableFuture<Resp> reply = callAsync(client, request).toCompletableFuture();
    try {
      return reply.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /**
   * Once per run, when the run's client exists and before the first call: the method to call (a
   * schema fetched from the server, a proxy or a reference made). Runs outside the event loops and may
   * block; an {@link IllegalArgumentException} or {@link IllegalStateException} ends the run with its message.
   */
  default RpcMethod<C, Req, Resp> prepare(C client) {
    return this;
  }

  /**
   * True when every call of this method completes by itself, once, by the run's timeout (the
   * framework's own deadline on each call, e.g. gRPC's): the core then sets no timer of its own on it.
   */
  default boolean enforcesTimeout() {
    return false;
  }

  /**
   * The request's own deadline in ms (gRPC's {@code .deadline(...)}), or 0 when its calls have the run's
   * timeout: a KO names the deadline that fired.
   */
  default long deadlineMillis() {
    return 0;
  }

  /** Per call, on the user's event loop: the method with this session's values (e.g. EL headers). */
  default RpcMethod<C, Req, Resp> bind(Session session) {
    return this;
  }
}
