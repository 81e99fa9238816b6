package protocols.load;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import protocols.rpc.Errors;
import protocols.stats.RunInfo;

/**
 * One level's injected faults and what they did: when the server went away and came back, the first
 * OK after it came back, when throughput was steady again, and the KOs meanwhile.
 */
final class FaultLevel {
  final String request;
  final long start;
  final long faultStart;
  final boolean restoring;
  final boolean apart;
  final List<RunInfo.FaultEvent> events = new CopyOnWriteArrayList<>();
  final Map<Integer, LongAdder> okPerSecond = new ConcurrentHashMap<>();
  final LongAdder koDuringFault = new LongAdder();
  final LongAdder okDuringFault = new LongAdder();
  volatile long restored;
  volatile long firstOkAfterRestore;
  volatile long lastEnd;
  /** The end of the last failed call that started in the fault window. */
  volatile long lastKoEnd;
  volatile Faults.FaultTarget restoredTarget;
  private final Faults.Step last;
  /** The last step was done (or failed): a slow restart ends here. */
  private volatile boolean lastApplied;

  FaultLevel(String request, long start, List<Faults.Step> steps, boolean apart) {
    this.request = request;
    this.apart = apart;
    this.start = start;
    this.faultStart = start + steps.get(0).at().toNanos();
    this.last = steps.get(steps.size() - 1);
    this.restoring = last.restores();
  }

  void apply(Faults.Step step, Faults.Targets targets) {
    String error = null;
    try {
      Faults.FaultTarget server = targets.of(step.on());
      switch (step.action()) {
        case KILL -> server.kill();
        case RESTART -> server.restart();
        case STOP -> server.signal("STOP");
        case CONT -> server.signal("CONT");
        default -> throw new IllegalStateException(step.action().label());
      }
      if (step.restores()) {
        restored = System.nanoTime();
        restoredTarget = server;
      }
    } catch (RuntimeException ex) {
      error = Errors.oneLine(ex);
      System.err.println("fault " + step.label() + " in " + request + " failed: " + error);
    }
    long done = System.nanoTime();
    if (step == last) {
      lastApplied = true; // before the event: whoever sees the event sees the wait over
    }
    events.add(new RunInfo.FaultEvent(step.label(), step.at().toMillis() / 1000.0, seconds(done), error));
  }

  /**
   * Whether the level must go on at {@code nanos} for its recovery to be seen: its server is not back yet
   * (a restart is a JVM's start: 14 s of a 20-s level on a busy machine), or is back for less than the
   * recovery bound. A failed restoring step ends the wait (the restart's own start timeout bounds it).
   */
  boolean recoveryPending(long nanos) {
    if (!restoring) {
      return false;
    }
    long back = restored;
    return back != 0 ? nanos < back + Faults.RECOVERY_BOUND.toNanos() : !lastApplied;
  }

  /**
   * Whether a call started at {@code nanos} belongs to the fault window: from {@link Faults#IN_FLIGHT_GUARD}
   * before the first fault (a call still in flight when the server stalls or dies is the fault's, not
   * the level's) to the recovery bound after the server is back.
   */
  boolean inWindow(long nanos) {
    if (nanos < faultStart - Faults.IN_FLIGHT_GUARD.toNanos()) {
      return false;
    }
    long back = restored;
    return back == 0 || nanos < back + Faults.RECOVERY_BOUND.toNanos();
  }

  void completed(long startNanos, long endNanos, boolean ok) {
    if (endNanos > lastEnd) {
      lastEnd = endNanos; // racy max: good to a call, enough to tell whether the level outlived the bound
    }
    if (ok) {
      okPerSecond.computeIfAbsent((int) ((endNanos - start) / 1_000_000_000L), s -> new LongAdder()).increment();
      long back = restored;
      if (back != 0 && firstOkAfterRestore == 0 && startNanos >= back) {
        firstOkAfterRestore = endNanos;
      }
    }
    if (inWindow(startNanos)) {
      (ok ? okDuringFault : koDuringFault).increment();
      if (!ok && endNanos > lastKoEnd) {
        lastKoEnd = endNanos;
      }
    }
  }

  double seconds(long nanos) {
    return Math.round((nanos - start) / 1e6) / 1000.0;
  }

  RunInfo.FaultOutcome outcome() {
    Long firstOk = restored == 0 || firstOkAfterRestore == 0 ? null : (firstOkAfterRestore - restored) / 1_000_000;
    // Unknown (null) when the level ended before the bound had passed without an OK.
    boolean observed = firstOk != null || (restored != 0 && lastEnd >= restored + Faults.RECOVERY_BOUND.toNanos());
    return new RunInfo.FaultOutcome(request, apart, List.copyOf(events), seconds(faultStart),
        restored == 0 ? null : seconds(restored), koDuringFault.sum(), okDuringFault.sum(), firstOk,
        steadyAfterRestoreMillis(),
        !restoring || !observed ? null : firstOk != null && firstOk <= Faults.RECOVERY_BOUND.toMillis(),
        lastEnd == 0 ? null : seconds(lastEnd), lastKoEnd == 0 ? null : (lastKoEnd - faultStart) / 1_000_000,
        servedAgainMillis());
  }

  /** From the restart to the restarted server's first call served, as it reported it; null if unknown. */
  private Long servedAgainMillis() {
    long back = restored;
    if (back == 0 || !(restoredTarget instanceof Faults.Reporting r)) {
      return null;
    }
    long first = r.firstServedNanos();
    return first == 0 ? null : Math.max(0, first - back) / 1_000_000;
  }

  /** From the restart to the end of the first full second with {@link #Faults.STEADY_SHARE} of the pre-fault mean. */
  Long steadyAfterRestoreMillis() {
    long back = restored;
    int before = (int) ((faultStart - start) / 1_000_000_000L);
    if (back == 0 || before < 2) {
      return null;
    }
    double mean = 0;
    for (int s = 1; s < before; s++) {
      mean += count(s);
    }
    mean /= before - 1; // the first second is left out: users were starting
    int from = (int) Math.ceil((back - start) / 1e9);
    int last = okPerSecond.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
    for (int s = from; s < last; s++) { // the last second is partial
      if (count(s) >= Faults.STEADY_SHARE * mean) {
        return (start + (s + 1) * 1_000_000_000L - back) / 1_000_000;
      }
    }
    return null;
  }

  long count(int second) {
    LongAdder a = okPerSecond.get(second);
    return a == null ? 0 : a.sum();
  }
}
