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

  /** Whether a call that failed with {@code error} timed out: the core's timeout or the framework's own. */
  default boolean timedOut(Throwable error) {
    Throwable e = Errors.unwrap(error);
    return e instanceof java.util.concurrent.TimeoutException || isTimeout(e);
  }

  /**
   * Whether a failed call is followed by the user's KO pause: an error, not a timeout, that came sooner
   * than the pause itself (a refused or dropped connection), which would otherwise loop at full speed.
   * A failed check on a reply, or an error that came after that long, has kept the user busy already.
   * The one rule of the Gatling actions and the plain driver.
   */
  static boolean pausesAfter(Throwable error, boolean timedOut, long elapsedNanos, long pauseNanos) {
    return pauseNanos > 0 && error != null && !timedOut && elapsedNanos < pauseNanos;
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

  /** A failed call's KO message, in one line; a framework may add where the call went (a discovered provider). */
  default String failureLine(Throwable error) {
    return Errors.oneLine(error);
  }

  /**
   * Where this client found the servers it calls, a line each (a registry's providers of a service, as
   * {@code zookeeper://127.0.0.1:2181 /dubbo/Svc/providers: 127.0.0.1:20880}); empty when it was given them.
   */
  default java.util.List<String> providersFound() {
    return java.util.List.of();
  }

  @Override
  void close();
}
