package protocols.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import protocols.load.RunAnalysis;
import protocols.stats.RequestStats;
import protocols.stats.SpectrumPoint;

/** The charts the report pages draw from a run's figures: percentile spectra, throughput over time, latency curves. */
public final class Charts {
  /** The spectrum's x axis ends at 99.99%: beyond it one call per ten thousand is all there is. */
  private static final double SPECTRUM_MAX = 99.99;

  private Charts() {}

  /** What a chart's legend calls a level, beside its group's title: {@code 20 clients}; a request of one's own by its name. */
  static String label(RequestStats r) {
    return r.level() == null || r.level().group() == null ? r.name() : r.level().label();
  }

  /** x: percentile as -log10(1 - p), so 90, 99, 99.9 and 99.99 are evenly spaced; y: µs on a log scale. */
  static SvgChart spectrum(String id, String group, List<RequestStats> levels) {
    List<SvgChart.Tick> ticks = List.of(new SvgChart.Tick(0, "0%"), new SvgChart.Tick(1, "90%"),
        new SvgChart.Tick(2, "99%"), new SvgChart.Tick(3, "99.9%"), new SvgChart.Tick(4, "99.99%"));
    List<RequestStats> measured = levels.stream().filter(RequestStats::measured).toList();
    long min = Long.MAX_VALUE;
    long max = 1;
    for (RequestStats r : measured) {
      for (SpectrumPoint p : plotted(r)) {
        if (p.percentile() <= SPECTRUM_MAX) {
          min = Math.min(min, Math.max(1, p.micros()));
          max = Math.max(max, p.micros());
        }
      }
    }
    SvgChart chart = SvgChart.of(id, "Latency by percentile, " + group,
        new SvgChart.Axis("percentile (log scale: each step is 10x rarer)", 0, 4, false, ticks),
        SvgChart.Axis.log("µs (log scale)", min == Long.MAX_VALUE ? 1 : min, max));
    for (RequestStats r : measured) {
      List<double[]> points = new ArrayList<>();
      for (SpectrumPoint p : plotted(r)) {
        if (p.percentile() <= SPECTRUM_MAX) {
          points.add(new double[] {-Math.log10(1 - p.percentile() / 100), Math.max(1, p.micros())});
        }
      }
      if (!points.isEmpty()) {
        chart = chart.with(new SvgChart.Series(label(r), points, false));
      }
    }
    return chart;
  }

  /** The spectrum drawn for a level: an open-model level's response time, a closed level's latency. */
  private static List<SpectrumPoint> plotted(RequestStats r) {
    return r.isOpen() ? r.open().responseSpectrum() : r.spectrum();
  }

  /**
   * The latency-throughput curve: response-time p50 (dashed) and p99 against the achieved OK calls/s
   * of each open-model level, one pair of lines (one colour) per named group.
   */
  static SvgChart curve(String id, String title, List<Map.Entry<String, List<RequestStats>>> groups) {
    double maxX = 1;
    long minY = Long.MAX_VALUE;
    long maxY = 1;
    for (Map.Entry<String, List<RequestStats>> g : groups) {
      for (RequestStats r : g.getValue()) {
        maxX = Math.max(maxX, r.okThroughput());
        if (r.open().responseP50() > 0) {
          minY = Math.min(minY, r.open().responseP50());
        }
        maxY = Math.max(maxY, r.open().responseP99());
      }
    }
    SvgChart chart = SvgChart.of(id, title, SvgChart.Axis.linear("achieved OK calls/s", maxX),
        SvgChart.Axis.log("response time, µs (log scale)", minY == Long.MAX_VALUE ? 1 : minY, maxY));
    int color = 0;
    for (Map.Entry<String, List<RequestStats>> g : groups) {
      List<RequestStats> levels = g.getValue().stream()
          .sorted(Comparator.comparingDouble(r -> r.open().offered())).toList();
      String who = g.getKey().isEmpty() ? "" : g.getKey() + " ";
      chart = chart.with(new SvgChart.Series(who + "p99", levels.stream()
          .map(r -> new double[] {r.okThroughput(), Math.max(1, r.open().responseP99())}).toList(), false, color));
      chart = chart.with(new SvgChart.Series(who + "p50", levels.stream()
          .map(r -> new double[] {r.okThroughput(), Math.max(1, r.open().responseP50())}).toList(), true, color));
      color++;
    }
    return chart;
  }

  /** Completions per 1-second window from each level's start; the last window is partial, so it is left out. */
  static SvgChart throughputOverTime(String id, String group, List<RequestStats> levels) {
    return throughputOverTime(id, group, levels, RunAnalysis::fullWindows);
  }

  /** As above, each level's windows given by {@code windows} (its fault window's calls added: {@link #timeline}). */
  static SvgChart throughputOverTime(String id, String group, List<RequestStats> levels,
                                     Function<RequestStats, long[]> windows) {
    double maxY = 1;
    double maxX = 1;
    for (RequestStats r : levels) {
      long[] w = windows.apply(r);
      for (long v : w) {
        maxY = Math.max(maxY, v);
      }
      maxX = Math.max(maxX, w.length);
    }
    SvgChart.Axis x = SvgChart.Axis.linear("seconds since the level started", maxX);
    SvgChart chart = SvgChart.of(id, "Calls/s over each level, " + group, x,
        SvgChart.Axis.linear("calls/s (1-second windows)", maxY));
    for (RequestStats r : levels) {
      long[] w = windows.apply(r);
      List<double[]> points = new ArrayList<>();
      for (int s = 0; s < w.length; s++) {
        points.add(new double[] {s + 0.5, w[s]});
      }
      chart = chart.with(new SvgChart.Series(label(r), points, !r.measured()));
    }
    return chart;
  }

  /**
   * Every completion of {@code level} per full second of its clock: its own and, when its fault
   * window's calls were counted apart in {@code window} (null: none), theirs, which the recorder keeps
   * on the level's clock moved on by whole seconds.
   */
  static long[] timeline(RequestStats level, RequestStats window) {
    long[] own = RunAnalysis.fullWindows(level);
    if (window == null) {
      return own;
    }
    // A level that went on past -Dduration until its server was back ends inside its fault window:
    // its line runs to the window's last full second, not to the level's own last call before the fault.
    int shift = (int) Math.round((window.startNanos() - level.startNanos()) / 1e9);
    long[] w = Arrays.copyOf(own, Math.max(own.length, shift + RunAnalysis.fullWindows(window).length));
    for (int i = 0; i < window.okWindows().length; i++) {
      int k = i + shift;
      if (k >= 0 && k < w.length) {
        w[k] += window.okWindows()[i] + (i < window.koWindows().length ? window.koWindows()[i] : 0);
      }
    }
    return w;
  }
}
