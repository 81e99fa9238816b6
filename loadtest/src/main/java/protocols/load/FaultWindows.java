package protocols.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import protocols.stats.Level;
import protocols.stats.RunInfo;

/**
 * A run's fault windows, by level: which calls fall in one (from the first fault to
 * {@link Faults#RECOVERY_BOUND} after the server is back), and so the name they are recorded under
 * ({@link Level#DURING_FAULT} after their level's, unless kept in the level), and what each level's
 * faults did. One per run, shared by the faults of its servers.
 */
public final class FaultWindows {
  private final Map<String, FaultLevel> levels = new ConcurrentHashMap<>();

  /** Starts the level {@code request}'s faults once: the first caller's. */
  void start(String request, Supplier<FaultLevel> level) {
    levels.computeIfAbsent(request, r -> level.get());
  }

  /** Whether a call of {@code request} started at {@code nanos} is recorded apart, in its level's fault window. */
  public boolean apart(String request, long nanos) {
    FaultLevel level = levels.isEmpty() ? null : levels.get(request);
    return level != null && level.apart && level.inWindow(nanos);
  }

  /** Whether {@code nanos} falls in a fault window of the level {@code request}. */
  public boolean inWindow(String request, long nanos) {
    FaultLevel level = levels.isEmpty() ? null : levels.get(request);
    return level != null && level.inWindow(nanos);
  }

  /** Whether the level {@code request} must go on for its fault's recovery to be seen ({@link FaultLevel#recoveryPending}). */
  public boolean recoveryPending(String request, long nanos) {
    FaultLevel level = levels.isEmpty() ? null : levels.get(request);
    return level != null && level.recoveryPending(nanos);
  }

  /** A call of the level {@code request} ended at {@code endNanos}. */
  public void completed(String request, long startNanos, long endNanos, boolean ok) {
    FaultLevel level = levels.isEmpty() ? null : levels.get(request);
    if (level != null) {
      level.completed(startNanos, endNanos, ok);
    }
  }

  /** What the faults did, per level in the order they ran, for the summary and the report. */
  public List<RunInfo.FaultOutcome> outcomes() {
    List<RunInfo.FaultOutcome> out = new ArrayList<>();
    levels.values().stream().sorted(Comparator.comparingLong(l -> l.start)).forEach(l -> out.add(l.outcome()));
    return out;
  }
}
