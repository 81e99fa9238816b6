package protocols.core;

import java.time.Duration;

/**
 * Whether every call has been failing for a while: a run that measures nothing but KOs (a dead or
 * wrong server) stops instead of filling its levels with failures. One per JVM, as a Gatling run is.
 */
public final class FailureWatch {
  /** When the current unbroken run of KOs began (System.nanoTime), or 0 after an OK. */
  private static volatile long failingSince;
  private static volatile boolean announced;

  private FailureWatch() {}

  /**
   * A call of the level {@code level}, logged as {@code request}, has completed: the faults' and this
   * watch's bookkeeping. KOs of an injected fault are expected, not a reason to stop the run: neither
   * those of calls started during it nor those of calls in flight when it struck (a server slow to
   * restart on a busy machine once had the run stopped 10 s after a kill).
   */
  static void completed(String level, String request, long startNanos, long endNanos, boolean ok) {
    Faults.completed(level, startNanos, endNanos, ok);
    if (ok) {
      ok();
    } else if (request.equals(level) && !Faults.inWindow(level, endNanos)) {
      ko();
    }
  }

  static void ok() {
    if (failingSince != 0) {
      failingSince = 0;
    }
  }

  static void ko() {
    if (failingSince == 0) {
      failingSince = System.nanoTime();
    }
  }

  /** True when no call has succeeded for {@code limit} while calls failed; never for a zero limit. */
  public static boolean failingFor(Duration limit) {
    long since = failingSince;
    return !limit.isZero() && since != 0 && System.nanoTime() - since >= limit.toNanos();
  }

  /**
   * Prints {@code message} on stderr the first time it is called in this run, and makes the run exit
   * with status 2 after its reports; returns true.
   */
  static boolean announce(String message) {
    if (!announced) {
      synchronized (FailureWatch.class) {
        if (!announced) {
          announced = true;
          System.err.println("error: " + message);
          // Gatling ends a stopped run as a success unless an assertion failed, and a server that died
          // after a long good stretch leaves the KO share under -DmaxKoPercent.
          RunReport.failOnExit("the run was stopped because every call failed (see above)");
        }
      }
    }
    return true;
  }

  static void reset() {
    failingSince = 0;
  }
}
