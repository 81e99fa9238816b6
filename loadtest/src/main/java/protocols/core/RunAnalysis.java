package protocols.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Arrays;

/**
 * Whether a run's figures can be trusted, level by level: other work on the machine, a level that
 * was not at steady state, KOs. Computed from the run's own records; the report pages, the summary
 * file and the console all show the same warnings.
 */
public final class RunAnalysis {
  /**
   * Other work may use at most this share of the machine (all cores) during a level. An idle Linux
   * box shows 0-3% here; the Maven JVM that forked Gatling idles. Above 10% (a fifth of a core on two
   * cores) another process takes enough CPU from clients and server to move the figures visibly.
   */
  static final double MAX_REST_SHARE = 0.10;
  /**
   * Steady state: the 1-second throughput windows of a level may spread (standard deviation over
   * mean) by at most this, and the least-squares line through them may rise or fall by at most
   * {@link #MAX_TREND} of the mean across the level. Quiet closed-loop levels on loopback measured
   * here stay under both (see README); a cold JIT or a busy neighbour does not.
   */
  static final double MAX_SPREAD = 0.15;
  static final double MAX_TREND = 0.15;
  /** Fewer full windows than this cannot show a steady state. */
  static final int MIN_WINDOWS = 3;

  /** One warning: which request (level), what kind, and the sentence a reader sees. */
  public record Warning(String request, String kind, String message) {
  }

  /** What was computed for one level: where the CPU went and how steady its throughput was. */
  public record Level(String request, boolean warmup, CpuSampler.Shares cpu, int fullWindows, double spread,
                      double trend, Saturation saturation) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("warmup", warmup);
      if (saturation != null) {
        m.put("saturation", saturation.asMap());
      }
      if (cpu != null) {
        m.put("cpuInjector", round(cpu.injector()));
        m.put("cpuServers", round(cpu.servers()));
        m.put("cpuRest", round(cpu.rest()));
        m.put("cpuIdle", round(cpu.idle()));
      }
      m.put("fullWindows", fullWindows);
      m.put("windowSpread", round(spread));
      m.put("windowTrend", round(trend));
      return m;
    }

    private static double round(double v) {
      return Math.round(v * 1000) / 1000.0;
    }
  }

  private final List<Level> levels;
  private final List<Warning> warnings;

  private RunAnalysis(List<Level> levels, List<Warning> warnings) {
    this.levels = List.copyOf(levels);
    this.warnings = List.copyOf(warnings);
  }

  public List<Level> levels() {
    return levels;
  }

  public List<Warning> warnings() {
    return warnings;
  }

  /** This analysis with {@code more} warnings after its own (e.g. a merge's). */
  public RunAnalysis withWarnings(List<Warning> more) {
    List<Warning> all = new ArrayList<>(warnings);
    all.addAll(more);
    return new RunAnalysis(levels, all);
  }

  public Optional<Level> level(String request) {
    return levels.stream().filter(l -> l.request().equals(request)).findFirst();
  }

  /** Analyses every request of a run; {@code cpu} is empty where the machine's CPU cannot be read. */
  public static RunAnalysis of(List<LatencyRecorder.RequestStats> requests, Optional<CpuSampler> cpu,
                               List<Map<String, Object>> warmups) {
    return of(requests, cpu, warmups, List.of());
  }

  /** As above, with the outcomes of injected faults ({@link Faults#outcomes()}). */
  public static RunAnalysis of(List<LatencyRecorder.RequestStats> requests, Optional<CpuSampler> cpu,
                               List<Map<String, Object>> warmups, List<Map<String, Object>> faults) {
    List<Level> levels = new ArrayList<>();
    List<Warning> warnings = new ArrayList<>();
    for (Map<String, Object> f : faults) {
      if (f.get("restoredSeconds") != null && f.get("recovered") == null) {
        warnings.add(new Warning(String.valueOf(f.get("request")), "recovery-not-seen", "the level ended at "
            + f.get("levelEndSeconds") + " s, before an OK call or " + Faults.RECOVERY_BOUND.toSeconds()
            + " s after the server came back at " + f.get("restoredSeconds") + " s: lengthen -Dduration to see the recovery"));
      } else if (Boolean.FALSE.equals(f.get("recovered"))) {
        warnings.add(new Warning(String.valueOf(f.get("request")), "no-recovery", "no OK call within "
            + Faults.RECOVERY_BOUND.toSeconds() + " s of the server coming back (first OK after "
            + (f.get("firstOkAfterRestoreMillis") == null ? "never" : f.get("firstOkAfterRestoreMillis") + " ms") + ")"));
      }
    }
    for (Map<String, Object> w : warmups) {
      if (Boolean.FALSE.equals(w.get("stable"))) {
        warnings.add(new Warning(String.valueOf(w.get("request")), "warm-up", "the automatic warm-up ended at its "
            + "limit after " + w.get("seconds") + " s without reaching a stable throughput: the first level may "
            + "still be warming up; raise -DwarmupMax"));
      }
    }
    java.util.Set<Object> faulted = new java.util.HashSet<>();
    faults.stream().filter(f -> !Boolean.FALSE.equals(f.get("callsApart"))).forEach(f -> faulted.add(f.get("request")));
    for (LatencyRecorder.RequestStats r : requests) {
      boolean warmup = EchoRun.notMeasured(r.name());
      CpuSampler.Shares shares = r.count() == 0 ? null
          : cpu.flatMap(c -> c.between(r.startNanos(), r.endNanos())).orElse(null);
      long[] full = fullWindows(r);
      double[] steadiness = steadiness(full);
      boolean fault = r.name().endsWith(Faults.SUFFIX);
      Saturation saturation = r.isOpen() && !warmup && !fault && r.count() + r.open().dropped() > 0
          ? Saturation.of(r, shares) : null;
      levels.add(new Level(r.name(), warmup, shares, full.length, steadiness[0], steadiness[1], saturation));
      if (warmup || fault) {
        continue; // a warm-up or ramp is there to be unsteady, a fault to fail
      }
      if (saturation != null && Saturation.INJECTOR.equals(saturation.limit())) {
        warnings.add(new Warning(r.name(), "injector-saturated", "the injector could not keep to the schedule, so this"
            + " level measured the injector as much as the server: " + saturation.reason()));
      }
      if (r.ko() > 0) {
        warnings.add(new Warning(r.name(), "ko", String.format(java.util.Locale.ROOT,
            "%d of %d calls failed (%.2f%%); latency figures are of OK calls only%s", r.ko(), r.count(),
            100.0 * r.ko() / r.count(), topReason(r))));
      }
      if (shares != null && shares.rest() > MAX_REST_SHARE) {
        warnings.add(new Warning(r.name(), "busy-machine", "other work used " + Html.pct(shares.rest())
            + " of the machine's CPU during this level (threshold " + Html.pct(MAX_REST_SHARE) + "; injector "
            + Html.pct(shares.injector()) + ", servers " + Html.pct(shares.servers()) + ", steal "
            + Html.pct(shares.steal()) + "): its figures measure a shared machine, not the framework"));
      }
      if (faulted.contains(r.name())) {
        continue; // its fault window is a hole in its windows: the faults table judges its recovery
      }
      int stalled = r.isOpen() ? -1 : stalledWindow(full);
      if (stalled >= 0) {
        warnings.add(new Warning(r.name(), "stall", "completions fell to " + full[stalled] + " in second " + stalled
            + " (the level's median is " + median(full) + "/s): the server or client stalled. A closed loop stops"
            + " sending while it waits, so the calls that would have waited were never made and this level's"
            + " percentiles leave the stall out (coordinated omission); an open-model level (-Drates) shows it"));
      } else if (r.count() > 0 && full.length < MIN_WINDOWS) {
        warnings.add(new Warning(r.name(), "too-short", "only " + full.length + " full 1-second windows (at least "
            + MIN_WINDOWS + " are needed to show a steady state): lengthen -Dduration"));
      } else if (steadiness[0] > MAX_SPREAD || Math.abs(steadiness[1]) > MAX_TREND) {
        warnings.add(new Warning(r.name(), "not-steady", String.format(java.util.Locale.ROOT,
            "throughput was not at steady state: 1-second windows spread %.0f%% (limit %.0f%%) and %s %.0f%% across"
                + " the level (limit %.0f%%); lengthen -Dwarmup (or use -Dwarmup=auto) or -Dduration",
            steadiness[0] * 100, MAX_SPREAD * 100, steadiness[1] >= 0 ? "rose" : "fell",
            Math.abs(steadiness[1]) * 100, MAX_TREND * 100)));
      }
    }
    return new RunAnalysis(levels, warnings);
  }

  /** A closed level's window with under this share of the median's completions: a stall, not noise. */
  static final double STALL_SHARE = 0.1;

  /** The first full window with fewer than {@link #STALL_SHARE} of the median's completions, or -1. */
  static int stalledWindow(long[] full) {
    if (full.length < MIN_WINDOWS) {
      return -1;
    }
    long median = median(full);
    for (int i = 0; i < full.length; i++) {
      if (full[i] < STALL_SHARE * median) {
        return i;
      }
    }
    return -1;
  }

  static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
  }

  /** The level's complete 1-second windows of all completions (OK and KO): the last, partial one is left out. */
  static long[] fullWindows(LatencyRecorder.RequestStats r) {
    int full = (int) Math.min(r.okWindows().length, Math.max(0, (r.endNanos() - r.startNanos()) / 1_000_000_000L));
    long[] out = new long[full];
    for (int i = 0; i < full; i++) {
      out[i] = r.okWindows()[i] + (i < r.koWindows().length ? r.koWindows()[i] : 0);
    }
    return out;
  }

  /** {spread, trend}: standard deviation over mean, and the fitted line's change across the windows over the mean. */
  static double[] steadiness(long[] windows) {
    int n = windows.length;
    if (n < 2) {
      return new double[] {0, 0};
    }
    double mean = 0;
    for (long w : windows) {
      mean += w;
    }
    mean /= n;
    if (mean <= 0) {
      return new double[] {0, 0};
    }
    double var = 0;
    double sxy = 0;
    double sxx = 0;
    double xMean = (n - 1) / 2.0;
    for (int i = 0; i < n; i++) {
      var += (windows[i] - mean) * (windows[i] - mean);
      sxy += (i - xMean) * (windows[i] - mean);
      sxx += (i - xMean) * (i - xMean);
    }
    double spread = Math.sqrt(var / n) / mean;
    double trend = sxy / sxx * (n - 1) / mean;
    return new double[] {spread, trend};
  }

  private static String topReason(LatencyRecorder.RequestStats r) {
    return r.koReasons().entrySet().stream().findFirst()
        .map(e -> "; most frequent: \"" + e.getKey() + "\" (" + e.getValue() + ")").orElse("");
  }
}
