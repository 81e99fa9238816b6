package protocols.load;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether every call of a run has been failing for a while: a run that measures nothing but KOs (a
 * dead or wrong server) stops instead of filling its levels with failures. One per run.
 */
public final class FailureWatch {
  private final FaultWindows faults;
  /** When the current unbroken run of KOs began (System.nanoTime), or 0 after an OK. */
  private volatile long failingSince;
  private final AtomicBoolean said = new AtomicBoolean();

  /** @param faults the run's fault windows: KOs of an injected fault are expected, not a reason to stop */
  public FailureWatch(FaultWindows faults) {
    this.faults = faults;
  }

  /**
   * A call of the level {@code level}, recorded as {@code request}, has completed: the faults' and this
   * watch's bookkeeping. Neither the KOs of calls started during a fault nor those of calls in flight
   * when it struck count (a server slow to restart on a busy machine once had the run stopped 10 s
   * after a kill).
   */
  public void completed(String level, String request, long startNanos, long endNanos, boolean ok) {
    faults.completed(level, startNanos, endNanos, ok);
    if (ok) {
      if (failingSince != 0) {
        failingSince = 0;
      }
    } else if (request.equals(level) && !faults.inWindow(level, endNanos) && failingSince == 0) {
      failingSince = System.nanoTime();
    }
  }

  /** True when no call has succeeded for {@code limit} while calls failed; never for a zero limit. */
  public boolean failingFor(Duration limit) {
    long since = failingSince;
    return !limit.isZero() && since != 0 && System.nanoTime() - since >= limit.toNanos();
  }

  /** True the first time only: who stops the run says why once. */
  public boolean firstToSay() {
    return said.compareAndSet(false, true);
  }
}
