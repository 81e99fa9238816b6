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

  /** Prints {@code message} on stderr the first time it is called in this run; returns true. */
  static boolean announce(String message) {
    if (!announced) {
      synchronized (FailureWatch.class) {
        if (!announced) {
          announced = true;
          System.err.println("error: " + message);
        }
      }
    }
    return true;
  }

  /** Whether this run was stopped because every call failed. */
  static boolean stoppedTheRun() {
    return announced;
  }

  static void reset() {
    failingSince = 0;
  }
}
