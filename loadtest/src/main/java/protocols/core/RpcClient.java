package protocols.core;

import java.util.concurrent.CompletionStage;

/**
 * What a framework adapter provides: one unary call, {@code MobileService.hello}, through the
 * framework's own async and blocking APIs. Everything else (timeouts, checks, stats, threads) is core.
 *
 * @param <Req> the framework's request message
 * @param <Resp> the framework's reply message
 */
public interface RpcClient<Req, Resp> extends AutoCloseable {

  /** Starts the call without blocking the caller; the stage completes on a framework thread. */
  CompletionStage<Resp> callAsync(Req request);

  /** The framework's blocking call; runs on the core's sync pool, never on a Gatling event loop. */
  Resp callSync(Req request) throws Exception;

  /** Whether {@code error} is the framework's own deadline firing (reported like the core's timeout). */
  default boolean isTimeout(Throwable error) {
    return false;
  }

  /** The framework's code for an error (a gRPC status, Dubbo's error kind); by default the class name. */
  default String errorCode(Throwable error) {
    return error.getClass().getSimpleName();
  }

  /**
   * If {@code error} is a size limit at work (the request or the reply too large for the client or
   * the server), the KO message that says so, from {@link SizeLimit#message}; otherwise null.
   * Called only for failed calls.
   */
  default String sizeLimit(Throwable error, Req request) {
    return null;
  }

  @Override
  void close();
}
