package protocols.lab;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import protocols.rpc.Errors;

/**
 * A run's exit status when its verdict comes after Gatling's: Gatling exits 0 unless one of its own
 * assertions failed, so a verdict of ours (a gate, the rate levels' KO check, every call failing) or an
 * internal error (a report or a gate that could not be written) is kept here, and the run's last
 * shutdown hook applies it once the JVM's other hooks have ended.
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

  private final List<Reason> reasons = new CopyOnWriteArrayList<>();

  /** The run exits with {@link #FAILED} once its reports are written, printing {@code why} last. */
  public void fail(String why) {
    reasons.add(new Reason(FAILED, why));
  }

  /** The run exits with {@link #INTERNAL_ERROR}, printing {@code what} broke and {@code error} in one line. */
  public void internalError(String what, Throwable error) {
    reasons.add(new Reason(INTERNAL_ERROR, "internal error: " + what + ": " + Errors.oneLine(error)));
  }

  /** The status the run must exit with: 0 when nothing failed. */
  public int status() {
    return reasons.stream().mapToInt(Reason::status).max().orElse(0);
  }

  /** Why, one sentence each. */
  public List<String> whys() {
    return reasons.stream().map(Reason::why).toList();
  }

  /** Why, one line each: {@code error: <why>: exit status N}. */
  public List<String> lines() {
    return reasons.stream().map(r -> "error: " + r.why() + ": exit status " + r.status()).toList();
  }

  /**
   * A shutdown hook that prints each reason in one line, runs {@code first} and, if there is a reason, halts
   * the JVM with its status after the JVM's other shutdown hooks (those registered by now) have ended:
   * halting at once would cut them short (a server's stop, a log's flush).
   */
  public Thread hook(Runnable first) {
    List<Thread> others = registeredHooks();
    return new Thread(() -> {
      int status = status();
      lines().forEach(System.err::println);
      System.err.flush();
      first.run(); // last on the console: the report's path and the run's outcome
      if (status == 0) {
        return;
      }
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

  /**
   * Ends the JVM with {@code error: <message>} on stderr and exit code 1: bad input or a run that
   * cannot start, before any load. Returns {@code e} for a {@code throw}.
   */
  public static RuntimeException exitNow(String message, RuntimeException e) {
    System.err.println("error: " + message);
    System.err.flush();
    System.out.println(new Outcome.Ended(Outcome.NOT_STARTED, message).line());
    System.out.flush();
    System.exit(1);
    return e;
  }
}
