package protocols.core;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The run's exit status when its verdict comes after Gatling's: Gatling exits 0 unless one of its own
 * assertions failed, so a verdict of ours (a gate, a KO check of rate levels, every call failing) or
 * an internal error (a report or a gate that could not be computed) sets the status here, and the
 * last shutdown hook applies it once the JVM's other hooks have finished.
 *
 * <p>Statuses: 2 a verdict failed (as Gatling's failed assertions), 3 an internal error.
 */
public final class ExitStatus {
  /** A verdict failed: the run's figures say the load did not pass (Gatling's own status for a failed assertion). */
  public static final int FAILED = 2;
  /** Something of ours broke: a report or a gate could not be written, so the run's verdict is unknown. */
  public static final int INTERNAL_ERROR = 3;
  private static final long OTHER_HOOKS_MILLIS = 30_000;

  private record Reason(int status, String why) {
  }

  private static final List<Reason> REASONS = new CopyOnWriteArrayList<>();

  private ExitStatus() {}

  /** The run exits with {@link #FAILED} once its reports are written, printing {@code why} last. */
  public static void fail(String why) {
    REASONS.add(new Reason(FAILED, why));
  }

  /** The run exits with {@link #INTERNAL_ERROR}, printing {@code what} broke and {@code error} in one line. */
  public static void internalError(String what, Throwable error) {
    REASONS.add(new Reason(INTERNAL_ERROR, "internal error: " + what + ": " + Errors.oneLine(error)));
  }

  /** The status the run must exit with: 0 when nothing failed. */
  public static int status() {
    return REASONS.stream().mapToInt(Reason::status).max().orElse(0);
  }

  /**
   * A shutdown hook that prints each reason in one line and, if there is one, halts the JVM with its
   * status after the JVM's other shutdown hooks (those registered by now) have ended: halting at once
   * would cut them short (a server's stop, a log's flush).
   */
  public static Thread hook(Runnable first) {
    List<Thread> others = registeredHooks();
    return new Thread(() -> {
      first.run();
      int status = status();
      if (status == 0) {
        return;
      }
      REASONS.forEach(r -> System.err.println("error: " + r.why() + ": exit status " + r.status()));
      System.err.flush();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OTHER_HOOKS_MILLIS);
      for (Thread other : others) {
        if (other != Thread.currentThread()) {
          try {
            other.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
          } catch (InterruptedException e) {
            break;
          }
        }
      }
      Runtime.getRuntime().halt(status);
    }, "rpc-exit-status");
  }

  /**
   * The shutdown hooks registered so far (the JDK's own list, read through java.lang's opens, which
   * every JVM of this project has for Kryo); none where they cannot be read.
   */
  @SuppressWarnings("unchecked")
  private static List<Thread> registeredHooks() {
    try {
      Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
      Field field = hooks.getDeclaredField("hooks");
      field.setAccessible(true);
      synchronized (hooks) {
        Map<Thread, Thread> map = (Map<Thread, Thread>) field.get(null);
        return map == null ? List.of() : new ArrayList<>(new IdentityHashMap<>(map).keySet());
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      return List.of();
    }
  }
}
