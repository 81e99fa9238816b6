package protocols.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import protocols.load.RunAnalysis;
import protocols.stats.Interval;
import protocols.stats.Intervals;
import protocols.stats.RequestStats;
import protocols.stats.Summaries;
import protocols.stats.Verdict;
import protocols.stats.Warning;

/**
 * Two runs' levels side by side: "did my change make it faster?". Levels match by value (the same
 * level of the same framework and mode; a simulation's own requests by name); per level and figure,
 * the candidate's over the baseline's with a 95% interval and the verdict it supports.
 */
public final class Compare {
  /**
   * A figure of a level: its name, whether more is better, and its 1-second windows in a run. A
   * percentile's is the mean of the level's per-second percentiles: one run's own p99 has no interval.
   */
  public enum Figure {
    CALLS_PER_SECOND("calls/s", true, r -> RunAnalysis.fullWindows(okOnly(r))),
    P50("p50 of seconds µs", false, r -> answered(r.p50Windows(), RunAnalysis.fullWindows(r).length)),
    P99("p99 of seconds µs", false, r -> answered(r.p99Windows(), RunAnalysis.fullWindows(r).length));

    private final String label;
    private final boolean higherIsBetter;
    private final Function<RequestStats, long[]> windows;

    Figure(String label, boolean higherIsBetter, Function<RequestStats, long[]> windows) {
      this.label = label;
      this.higherIsBetter = higherIsBetter;
      this.windows = windows;
    }

    public String label() {
      return label;
    }

    public boolean higherIsBetter() {
      return higherIsBetter;
    }

    /** The level's full 1-second windows of this figure. */
    public long[] windows(RequestStats level) {
      return windows.apply(level);
    }

    /** The level's own figure: calls/s, or its p50 or p99 (not the mean of its seconds'); NaN without an OK call. */
    public double of(RequestStats level) {
      return switch (this) {
        case CALLS_PER_SECOND -> level.okThroughput();
        case P50 -> level.hasOkCalls() ? level.p50() : Double.NaN;
        case P99 -> level.hasOkCalls() ? level.p99() : Double.NaN;
      };
    }
  }

  /** One level's figure in both runs. {@code warned}: the two runs' warnings on the level, "" without. */
  public record Row(String level, Figure figure, Interval baseline, Interval candidate, Interval ratio, Verdict verdict,
                    String warned) {
  }

  /** What the comparison found: its rows, and the levels only one run has. */
  public record Result(List<Row> rows, List<String> unmatched, double noiseFloor) {
  }

  /** A level whose figures measured a shared machine: no verdict, whatever its ratio. */
  private static final Set<Warning.Kind> NOT_JUDGED = Set.of(Warning.Kind.BUSY_MACHINE, Warning.Kind.INTERRUPTED);

  private Compare() {}

  public static Result of(Summaries.Summary baseline, Summaries.Summary candidate, double noiseFloor) {
    Map<Object, RequestStats> before = levels(baseline);
    Map<Object, RequestStats> after = levels(candidate);
    List<Row> rows = new ArrayList<>();
    List<String> unmatched = new ArrayList<>();
    for (Map.Entry<Object, RequestStats> e : before.entrySet()) {
      RequestStats a = e.getValue();
      RequestStats b = after.get(e.getKey());
      if (b == null) {
        unmatched.add(a.name() + " (baseline only)");
        continue;
      }
      Set<String> warnedA = kinds(baseline, a.name());
      Set<String> warnedB = kinds(candidate, b.name());
      boolean judged = NOT_JUDGED.stream().noneMatch(k -> warnedA.contains(k.id()) || warnedB.contains(k.id()));
      String warned = (warnedA.isEmpty() ? "" : "baseline " + String.join(", ", warnedA))
          + (warnedA.isEmpty() || warnedB.isEmpty() ? "" : "; ")
          + (warnedB.isEmpty() ? "" : "candidate " + String.join(", ", warnedB));
      for (Figure f : Figure.values()) {
        Intervals.Estimate x = Intervals.ofWindows(f.windows(a));
        Intervals.Estimate y = Intervals.ofWindows(f.windows(b));
        Interval ratio = Intervals.ratio(x, y);
        Verdict v = judged ? Intervals.verdict(ratio, f.higherIsBetter, noiseFloor) : Verdict.NOT_JUDGED;
        rows.add(new Row(a.name(), f, x.interval(), y.interval(), ratio, v, warned));
      }
    }
    after.forEach((k, r) -> {
      if (!before.containsKey(k)) {
        unmatched.add(r.name() + " (candidate only)");
      }
    });
    return new Result(rows, unmatched, noiseFloor);
  }

  /** The measured levels of a run, by their value (a request of a simulation's own: by its name). */
  private static Map<Object, RequestStats> levels(Summaries.Summary s) {
    Map<Object, RequestStats> out = new LinkedHashMap<>();
    for (RequestStats r : s.requests()) {
      if (r.measured() && r.hasOkCalls()) {
        out.put(r.level() == null ? r.name() : r.level(), r);
      }
    }
    return out;
  }

  private static Set<String> kinds(Summaries.Summary s, String request) {
    Set<String> out = new TreeSet<>();
    for (Warning w : s.warnings()) {
      if (w.request().equals(request)) {
        out.add(w.kind().id());
      }
    }
    return out;
  }

  /** The OK calls' windows alone: a KO is no call served. */
  private static RequestStats okOnly(RequestStats r) {
    return new RequestStats(r.name(), r.count(), r.ko(), r.durationSeconds(), r.throughput(), r.okThroughput(), r.mean(),
        r.p50(), r.p90(), r.p99(), r.p999(), r.max(), r.koReasons(), r.okWindows(), new long[0], r.p50Windows(),
        r.p99Windows(), r.spectrum(), r.histogram(), r.startNanos(), r.sendEndNanos(), r.endNanos(),
        r.startEpochMillis(), r.sendEndEpochMillis(), r.endEpochMillis(), r.open(), r.level());
  }

  /** A per-second percentile's full windows that had OK calls (0: none answered in that second). */
  private static long[] answered(long[] windows, int full) {
    return java.util.Arrays.stream(windows, 0, Math.min(full, windows.length)).filter(w -> w > 0).toArray();
  }
}
