package servers.common;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code --delay-us N}: a service time per call, as a service doing real work has. The reply is
 * sent N µs later from a timer, so no I/O or worker thread sleeps; a framework with a scheduler of its
 * own (Netty's event loop) uses that instead.
 */
public final class ServiceDelay {
  /** The flag every server takes; 0 (the default) answers at once. */
  public static final String FLAG = "delay-us";

  private final long micros;
  private final ScheduledExecutorService timer;

  private ServiceDelay(long micros) {
    this.micros = micros;
    if (micros > 0) {
      ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
        Thread thread = new Thread(r, "service-delay");
        thread.setDaemon(true);
        return thread;
      });
      t.setRemoveOnCancelPolicy(true);
      timer = t;
    } else {
      timer = null;
    }
  }

  public static ServiceDelay from(ServerFlags flags) {
    return new ServiceDelay(flags.intValue(FLAG, 0, 10_000_000));
  }

  public boolean none() {
    return micros == 0;
  }

  public long micros() {
    return micros;
  }

  /** Runs {@code reply} after the delay, on the timer thread (at once, on this thread, without one). */
  public void then(Runnable reply) {
    if (timer == null) {
      reply.run();
    } else {
      timer.schedule(reply, micros, TimeUnit.MICROSECONDS);
    }
  }

  /** {@code value}, after the delay. */
  public <T> CompletableFuture<T> after(T value) {
    if (timer == null) {
      return CompletableFuture.completedFuture(value);
    }
    CompletableFuture<T> f = new CompletableFuture<>();
    timer.schedule(() -> f.complete(value), micros, TimeUnit.MICROSECONDS);
    return f;
  }
}
