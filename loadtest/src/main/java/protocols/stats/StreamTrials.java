package protocols.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The streaming shootout's levels over their trials (-Drepeat): per level the median of each figure
 * with its 95% interval, every two frameworks at a level as ratios with intervals and verdicts (trials of
 * one round pair up by their number, as the shootout's levels do), and each level's resolution. Empty
 * for streams measured once, or not by the shootout.
 *
 * @param levels each level's medians, in the order levels first ran
 * @param pairs every two frameworks at each level, the earlier-run one the baseline
 * @param resolutions per level, the smallest received/s change this run could tell apart (0.04: ±4%)
 */
public record StreamTrials(List<Row> levels, List<Pair> pairs, List<Resolution> resolutions) {
  /**
   * One level over its trials: messages received per second, round-trip p50 and p99 (µs), 95% intervals,
   * and those of its trials the run warned of (their figures are in the medians: read them with that).
   */
  public record Row(StreamLevel level, String name, int trials, Interval receivedPerSecond, Interval roundTripP50,
                    Interval roundTripP99, List<String> warnedTrials) {
  }

  /** The candidate's figure over the baseline's at the same level, with its interval and verdict. */
  public record Pair(String baseline, String candidate, String level, Interval receivedRatio,
                     Verdict receivedVerdict, Interval roundTripP50Ratio, Verdict roundTripP50Verdict,
                     Interval roundTripP99Ratio, Verdict roundTripP99Verdict) {
  }

  /** The half-width of an A/A pair's interval at a level, from its frameworks' spread over paired rounds. */
  public record Resolution(String level, int rounds, double paired) {
  }

  /**
   * The levels of {@code streams} that were measured more than once; {@code seed} the bootstrap's,
   * {@code warned} whether the run warned of a request (by name).
   */
  public static StreamTrials of(List<StreamStats> streams, long seed, java.util.function.Predicate<String> warned) {
    Map<StreamLevel, TreeMap<Integer, StreamStats>> trials = new LinkedHashMap<>();
    for (StreamStats s : streams) {
      if (s.level() != null && s.level().trial() > 0) {
        trials.computeIfAbsent(s.level().overTrials(), k -> new TreeMap<>()).put(s.level().trial(), s);
      }
    }
    List<Row> rows = new ArrayList<>();
    trials.forEach((level, ts) -> {
      if (ts.size() >= 2) {
        List<StreamStats> list = List.copyOf(ts.values());
        rows.add(new Row(level, level.name(), list.size(),
            TrialStats.median(figure(list, StreamStats::receivedPerSecond), seed),
            TrialStats.median(figure(list, StreamTrials::p50), seed),
            TrialStats.median(figure(list, StreamTrials::p99), seed),
            list.stream().map(StreamStats::name).filter(warned).toList()));
      }
    });
    // The same streams and pace: every framework's trials side by side.
    Map<String, List<StreamLevel>> byLoad = new LinkedHashMap<>();
    trials.keySet().forEach(l -> byLoad.computeIfAbsent(l.load(), k -> new ArrayList<>()).add(l));
    List<Pair> pairs = new ArrayList<>();
    List<Resolution> resolutions = new ArrayList<>();
    byLoad.forEach((label, frameworks) -> {
      for (int i = 0; i < frameworks.size(); i++) {
        for (int j = i + 1; j < frameworks.size(); j++) {
          pair(label, frameworks.get(i), frameworks.get(j), trials).ifPresent(pairs::add);
        }
      }
      List<TreeMap<Integer, StreamStats>> each = frameworks.stream().map(trials::get).toList();
      List<Integer> rounds = each.get(0).keySet().stream().filter(r -> each.stream().allMatch(t -> t.containsKey(r)))
          .toList();
      if (each.size() >= 2 && rounds.size() >= 2) {
        double[][] spread = each.stream().map(t -> rounds.stream().mapToDouble(r -> t.get(r).receivedPerSecond())
            .toArray()).toArray(double[][]::new);
        double paired = TrialStats.pairedResolution(spread);
        if (Double.isFinite(paired)) {
          resolutions.add(new Resolution(label, rounds.size(), paired));
        }
      }
    });
    return new StreamTrials(List.copyOf(rows), List.copyOf(pairs), List.copyOf(resolutions));
  }

  public boolean isEmpty() {
    return levels.isEmpty();
  }

  private static java.util.Optional<Pair> pair(String label, StreamLevel a, StreamLevel b,
                                               Map<StreamLevel, TreeMap<Integer, StreamStats>> trials) {
    TreeMap<Integer, StreamStats> ta = trials.get(a);
    TreeMap<Integer, StreamStats> tb = trials.get(b);
    List<Integer> rounds = ta.keySet().stream().filter(tb::containsKey).toList();
    if (rounds.size() < 2) {
      return java.util.Optional.empty();
    }
    Interval received = ratio(ta, tb, rounds, StreamStats::receivedPerSecond);
    Interval p50 = ratio(ta, tb, rounds, StreamTrials::p50);
    Interval p99 = ratio(ta, tb, rounds, StreamTrials::p99);
    return java.util.Optional.of(new Pair(a.framework(), b.framework(), label,
        received, Intervals.verdict(received, true, TrialStats.NOISE_FLOOR),
        p50, Intervals.verdict(p50, false, TrialStats.NOISE_FLOOR),
        p99, Intervals.verdict(p99, false, TrialStats.P99_NOISE_FLOOR)));
  }

  private static Interval ratio(TreeMap<Integer, StreamStats> a, TreeMap<Integer, StreamStats> b, List<Integer> rounds,
                                ToDoubleFunction<StreamStats> f) {
    return TrialStats.pairedRatio(rounds.stream().map(a::get).mapToDouble(f).toArray(),
        rounds.stream().map(b::get).mapToDouble(f).toArray());
  }

  /** A trial's round-trip p50, NaN when it timed no round trip (not an echo, or nothing came back). */
  private static double p50(StreamStats s) {
    return s.roundTrips() > 0 ? s.roundTripP50() : Double.NaN;
  }

  private static double p99(StreamStats s) {
    return s.roundTrips() > 0 ? s.roundTripP99() : Double.NaN;
  }

  private static double[] figure(List<StreamStats> ts, ToDoubleFunction<StreamStats> f) {
    return ts.stream().mapToDouble(f).toArray();
  }
}
