package protocols.rpc;

import io.netty.util.HashedWheelTimer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Call timeouts on one timer wheel: the JDK's {@code orTimeout} goes through one shared delayer
 * thread and its locked queue, per call. Ticks of 10 ms: a timeout fires up to 10 ms late, never
 * early. Used by the Gatling path and the plain driver alike.
 */
public final class CallTimer implements AutoCloseable {
  private final HashedWheelTimer wheel;

  public CallTimer(String name) {
    wheel = new HashedWheelTimer(r -> {
      Thread t = new Thread(r, name + "-timeouts");
      t.setDaemon(true);
      return t;
    }, 10, TimeUnit.MILLISECONDS, 512);
  }

  /**
   * The call as the caller sees it: the framework's own future {@code own} when {@code method}
   * enforces the timeout itself; else a copy of it that fails with a {@link TimeoutException} after
   * {@code millis} unless it completed first, the framework's call then being cancelled so it can
   * forget it. Either way the returned future completes exactly once.
   */
  public <T> CompletableFuture<T> within(RpcMethod<?, ?, ?> method, CompletableFuture<T> own, long millis) {
    if (method.enforcesTimeout() || own.isDone()) {
      return own;
    }
    // copy(): the timeout completes the copy, never the framework's own future under its feet.
    CompletableFuture<T> call = own.copy();
    io.netty.util.Timeout timeout = wheel.newTimeout(t -> {
      if (call.completeExceptionally(new TimeoutException())) {
        own.cancel(false);
      }
    }, millis, TimeUnit.MILLISECONDS);
    call.whenComplete((r, e) -> timeout.cancel());
    return call;
  }

  /** Runs {@code task} on the wheel's thread after {@code millis}; returns what cancels it. */
  public Runnable schedule(Runnable task, long millis) {
    io.netty.util.Timeout timeout = wheel.newTimeout(t -> task.run(), millis, TimeUnit.MILLISECONDS);
    return timeout::cancel;
  }

  /** Timeouts waiting on the wheel. */
  public int pending() {
    return (int) wheel.pendingTimeouts();
  }

  @Override
  public void close() {
    wheel.stop();
  }
}
