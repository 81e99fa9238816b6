package protocols.shootout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import protocols.compare.Compare;
import protocols.report.Comparison;
import protocols.rpc.InvocationMode;
import protocols.stats.CpuSampler;
import protocols.stats.Interval;
import protocols.stats.Intervals;
import protocols.stats.Level;
import protocols.stats.RequestStats;
import protocols.stats.TrialStats;
import protocols.stats.Verdict;

/**
 * The shootout's levels over their trials: each level's figures with intervals ({@link
 * Comparison.Spread}), every pair of variants at a level with ratios, intervals and verdicts ({@link
 * Comparison.Pair}), and each level's resolution. Trials of one round pair up by their number; a level
 * measured once gets intervals from its 1-second windows instead, labelled as such.
 */
final class TrialComparison {
  /** Each closed level's trials by trial number (0 alone: measured once). */
  private final Map<Level, TreeMap<Integer, RequestStats>> trials = new LinkedHashMap<>();
  private final long seed;

  TrialComparison(List<RequestStats> requests, long seed) {
    this.seed = seed;
    for (RequestStats r : requests) {
      Level l = r.level();
      if (l != null && l.kind() == Level.Kind.CLOSED && !l.duringFault()) {
        trials.computeIfAbsent(l.overTrials(), k -> new TreeMap<>()).put(l.trial(), r);
      }
    }
  }

  /** The level's trials in the order they ran (one when it was measured once); empty when not reached. */
  List<RequestStats> of(Level level) {
    return List.copyOf(trials.getOrDefault(level, new TreeMap<>()).values());
  }

  /** The median of each figure over the level's trials with its interval; null with fewer than 2 trials. */
  Comparison.Spread spread(Level level, Function<String, CpuSampler.Shares> cpu) {
    List<RequestStats> ts = of(level);
    if (ts.size() < 2) {
      return null;
    }
    double[] cpuPerCall = ts.stream().mapToDouble(r -> {
      CpuSampler.Shares s = cpu.apply(r.name());
      return s == null || r.okThroughput() <= 0 ? Double.NaN : s.injectorCores() * 1e6 / r.okThroughput();
    }).filter(Double::isFinite).toArray();
    return new Comparison.Spread(ts.size(), TrialStats.median(figure(ts, RequestStats::okThroughput), seed),
        TrialStats.median(figure(ts, r -> r.hasOkCalls() ? r.p50() : Double.NaN), seed),
        TrialStats.median(figure(ts, r -> r.hasOkCalls() ? r.p99() : Double.NaN), seed),
        cpuPerCall.length < ts.size() ? null : TrialStats.median(cpuPerCall, seed),
        ts.stream().map(RequestStats::okThroughput).toList(), median(ts).name());
  }

  /** The trial whose calls/s is the median (of an even number, the lower of the middle two). */
  static RequestStats median(List<RequestStats> ts) {
    List<RequestStats> sorted = ts.stream().sorted(Comparator.comparingDouble(RequestStats::okThroughput)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The median calls/s of a level's trials; 0 when it was not reached. */
  double medianThroughput(Level level) {
    List<RequestStats> ts = of(level);
    return ts.isEmpty() ? 0 : TrialStats.medianOf(ts.stream().mapToDouble(RequestStats::okThroughput).toArray());
  }

  /** A figure of each trial, NaN where it has none. */
  private static double[] figure(List<RequestStats> ts, ToDoubleFunction<RequestStats> f) {
    return ts.stream().mapToDouble(f).toArray();
  }

  /**
   * Every two variants at each level and mode, the earlier-run one the baseline; with several modes,
   * each variant's other modes against its async.
   */
  List<Comparison.Pair> pairs(List<String> variants, List<InvocationMode> modes, List<Integer> levels) {
    List<Comparison.Pair> out = new ArrayList<>();
    for (InvocationMode mode : modes) {
      for (int clients : levels) {
        for (int i = 0; i < variants.size(); i++) {
          for (int j = i + 1; j < variants.size(); j++) {
            pair(Level.closed(variants.get(i), clients, mode), Level.closed(variants.get(j), clients, mode))
                .ifPresent(out::add);
          }
        }
      }
    }
    if (modes.contains(InvocationMode.ASYNC)) {
      for (String v : variants) {
        for (InvocationMode mode : modes.stream().filter(m -> m != InvocationMode.ASYNC).toList()) {
          for (int clients : levels) {
            pair(Level.closed(v, clients, InvocationMode.ASYNC), Level.closed(v, clients, mode)).ifPresent(out::add);
          }
        }
      }
    }
    return out;
  }

  private java.util.Optional<Comparison.Pair> pair(Level a, Level b) {
    TreeMap<Integer, RequestStats> ta = trials.get(a);
    TreeMap<Integer, RequestStats> tb = trials.get(b);
    if (ta == null || tb == null) {
      return java.util.Optional.empty();
    }
    List<Integer> rounds = ta.keySet().stream().filter(tb::containsKey).toList();
    Interval[] ratios = new Interval[Compare.Figure.values().length];
    Verdict[] verdicts = new Verdict[ratios.length];
    for (Compare.Figure f : Compare.Figure.values()) {
      Interval ratio;
      if (rounds.size() >= 2) {
        ratio = TrialStats.pairedRatio(value(f, ta, rounds), value(f, tb, rounds));
      } else if (rounds.size() == 1) {
        ratio = Intervals.ratio(Intervals.ofWindows(f.windows(ta.get(rounds.get(0)))),
            Intervals.ofWindows(f.windows(tb.get(rounds.get(0)))));
      } else {
        return java.util.Optional.empty();
      }
      ratios[f.ordinal()] = ratio;
      verdicts[f.ordinal()] = Intervals.verdict(ratio, f.higherIsBetter(),
          f == Compare.Figure.P99 ? TrialStats.P99_NOISE_FLOOR : TrialStats.NOISE_FLOOR);
    }
    return java.util.Optional.of(new Comparison.Pair(a.framework(), b.framework(),
        a.mode() == b.mode() ? a.mode().label() : a.mode().label() + " / " + b.mode().label(), a.size(),
        ratios[0], verdicts[0], ratios[1], verdicts[1], ratios[2], verdicts[2]));
  }

  /** A figure of each round's trial: calls/s, or the trial's own p50 or p99 (not the mean of its seconds'). */
  private static double[] value(Compare.Figure f, TreeMap<Integer, RequestStats> ts, List<Integer> rounds) {
    return rounds.stream().map(ts::get).mapToDouble(f::of).toArray();
  }

  /**
   * Per level and mode, the smallest calls/s change this run could tell apart: from the variants'
   * spread over trials or, measured once, the median over variants of an A/A ratio of one level's
   * windows with itself.
   */
  List<Comparison.Resolution> resolutions(List<String> variants, List<InvocationMode> modes, List<Integer> levels) {
    List<Comparison.Resolution> out = new ArrayList<>();
    for (InvocationMode mode : modes) {
      for (int clients : levels) {
        List<List<RequestStats>> each = variants.stream().map(v -> of(Level.closed(v, clients, mode)))
            .filter(ts -> !ts.isEmpty()).toList();
        if (each.isEmpty()) {
          continue;
        }
        int rounds = each.stream().mapToInt(List::size).min().orElse(0);
        if (rounds >= 2) {
          double[][] spread = each.stream().map(ts -> ts.stream().limit(rounds).mapToDouble(RequestStats::okThroughput)
              .toArray()).toArray(double[][]::new);
          double paired = TrialStats.pairedResolution(spread);
          out.add(new Comparison.Resolution(clients, mode.label(), Double.isNaN(paired) ? null : paired,
              TrialStats.resolution(spread), "as an A/A pair's interval half-width, from the variants' spread over "
              + rounds + " trials"));
        } else {
          double[] halves = each.stream().mapToDouble(ts -> {
            Intervals.Estimate e = Intervals.ofWindows(Compare.Figure.CALLS_PER_SECOND.windows(ts.get(0)));
            Interval aa = Intervals.ratio(e, e);
            return aa.hi() - 1;
          }).filter(Double::isFinite).sorted().toArray();
          if (halves.length > 0) {
            out.add(new Comparison.Resolution(clients, mode.label(), null, halves[halves.length / 2], "one trial: the"
                + " median over variants of a level's 1-second windows against themselves; leaves out run-to-run"
                + " noise"));
          }
        }
      }
    }
    out.sort(Comparator.comparing(Comparison.Resolution::mode).thenComparingInt(Comparison.Resolution::clients));
    return out;
  }
}
