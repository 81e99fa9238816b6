package protocols.rpc;

/**
 * A framework's client for a run: its connections, made once, and how it reads the framework's errors.
 * The calls themselves are {@link RpcMethod}s; everything else (timeouts, checks, stats, threads) is core.
 */
public interface RpcClient extends AutoCloseable {

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
   * Called only for failed calls; {@code request} is whatever the method was given.
   */
  default String sizeLimit(Throwable error, Object request) {
    return null;
  }

  @Override
  void close();
}
