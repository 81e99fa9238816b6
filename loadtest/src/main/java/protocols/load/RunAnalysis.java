package protocols.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import protocols.stats.RunInfo;
import protocols.stats.Validity;
import java.util.Optional;
import java.util.Arrays;
import protocols.stats.LatencyRecorder;
import protocols.stats.CpuSampler;
import protocols.stats.Warning;
import protocols.stats.Warning.Kind;
import protocols.stats.Saturation;
import protocols.stats.RequestStats;
import protocols.stats.Numbers;

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
   * here stay under both (see docs/reading-results.md); a cold JIT or a busy neighbour does not.
   */
  static final double MAX_SPREAD = 0.15;
  static final double MAX_TREND = 0.15;
  /** Why the calls of a fault window are not judged. */
  static final String FAULT_WINDOW_NOT_JUDGED = "the calls of an injected fault's window, there to fail: not judged"
      + " for KOs or steadiness; the faults table gives their KOs and the recovery";
  /** Why a level whose fault window's calls were counted apart is not judged for steadiness. */
  static final String FAULTED_NOT_JUDGED = "its fault window's calls are counted apart, a hole in its 1-second"
      + " windows: not judged for steadiness (KOs and CPU are); the faults table judges its recovery";

  /** Fewer full windows than this cannot show a steady state. */
  static final int MIN_WINDOWS = 3;

  /**
   * What was computed for one level: where the CPU went, how steady its throughput was, and for a rate
   * level how steady its per-second p50 was ({@code latencySpread}, {@code latencyTrend}: NaN when not judged).
   */
  public record Assessment(String request, boolean warmup, CpuSampler.Shares cpu, int fullWindows, double spread,
                           double trend, double latencySpread, double latencyTrend, Saturation saturation,
                           String notJudged) {
    /** As the summary holds it. */
    public Validity validity() {
      return new Validity(warmup, saturation, cpu == null ? null : round(cpu.injector()),
          cpu == null ? null : round(cpu.servers()), cpu == null ? null : round(cpu.rest()),
          cpu == null ? null : round(cpu.idle()), fullWindows, round(spread), round(trend),
          Double.isNaN(latencySpread) ? null : round(latencySpread),
          Double.isNaN(latencyTrend) ? null : round(latencyTrend), notJudged,
          cpu == null ? null : round(cpu.otherServers()));
    }

    private static double round(double v) {
      return Math.round(v * 1000) / 1000.0;
    }
  }

  private final List<Assessment> levels;
  private final List<Warning> warnings;
  private final Optional<String> cpuNotSampled;

  private RunAnalysis(List<Assessment> levels, List<Warning> warnings, Optional<String> cpuNotSampled) {
    this.levels = List.copyOf(levels);
    this.warnings = List.copyOf(warnings);
    this.cpuNotSampled = cpuNotSampled;
  }

  public List<Assessment> levels() {
    return levels;
  }

  public List<Warning> warnings() {
    return warnings;
  }

  /**
   * Why no level's CPU shares were measured, if none was: then other work on the machine was not
   * checked, and "no warnings" must not say it was.
   */
  public Optional<String> cpuNotSampled() {
    return cpuNotSampled;
  }

  /** This analysis with {@code more} warnings after its own (e.g. a merge's). */
  public RunAnalysis withWarnings(List<Warning> more) {
    List<Warning> all = new ArrayList<>(warnings);
    all.addAll(more);
    return new RunAnalysis(levels, all, cpuNotSampled);
  }

  /** This analysis, saying why the CPU was not sampled (when it was not). */
  public RunAnalysis withCpuNotSampledBecause(String why) {
    return new RunAnalysis(levels, warnings, cpuNotSampled.map(w -> why));
  }

  /** The measured levels whose steadiness (or more) was not judged, and why: faults. */
  public List<Assessment> notJudged() {
    return levels.stream().filter(l -> l.notJudged() != null).toList();
  }

  public Optional<Assessment> level(String request) {
    return levels.stream().filter(l -> l.request().equals(request)).findFirst();
  }

  /** Analyses every request of a run; {@code cpu} is empty where the machine's CPU cannot be read. */
  public static RunAnalysis of(List<RequestStats> requests, Optional<CpuSampler> cpu,
                               List<RunInfo.WarmupOutcome> warmups) {
    return of(requests, cpu, warmups, List.of());
  }

  /** As above, with the outcomes of injected faults. */
  public static RunAnalysis of(List<RequestStats> requests, Optional<CpuSampler> cpu,
                               List<RunInfo.WarmupOutcome> warmups, List<RunInfo.FaultOutcome> faults) {
    return of(requests, cpu, warmups, List.of(), faults, r -> null);
  }

  /**
   * As above, with what each level's settle did ({@code settles}, by the level's name); {@code
   * ownServers} tells, per request, which server processes are its own (its CPU per call counts only
   * theirs), or null for every server the lab started.
   */
  public static RunAnalysis of(List<RequestStats> requests, Optional<CpuSampler> cpu,
                               List<RunInfo.WarmupOutcome> warmups, List<RunInfo.WarmupOutcome> settles,
                               List<RunInfo.FaultOutcome> faults,
                               java.util.function.Function<RequestStats, java.util.function.LongPredicate> ownServers) {
    List<Assessment> levels = new ArrayList<>();
    List<Warning> warnings = new ArrayList<>();
    for (RunInfo.FaultOutcome f : faults) {
      if (f.restoredSeconds() != null && f.recovered() == null) {
        warnings.add(new Warning(f.request(), Kind.RECOVERY_NOT_SEEN, "the level ended at " + f.levelEndSeconds()
            + " s, before an OK call or " + Faults.RECOVERY_BOUND.toSeconds() + " s after the server came back at "
            + f.restoredSeconds() + " s: lengthen -Dduration to see the recovery"));
      } else if (Boolean.FALSE.equals(f.recovered())) {
        warnings.add(new Warning(f.request(), Kind.NO_RECOVERY, "no OK call within "
            + Faults.RECOVERY_BOUND.toSeconds() + " s of the server coming back (first OK after "
            + (f.firstOkAfterRestoreMillis() == null ? "never" : f.firstOkAfterRestoreMillis() + " ms") + ")"));
      }
    }
    Map<String, RunInfo.WarmupOutcome> settleOf = new java.util.HashMap<>();
    for (RunInfo.WarmupOutcome s : settles) {
      settleOf.put(s.request(), s);
      if (Boolean.FALSE.equals(s.stable())) {
        boolean rehearsal = requests.stream().anyMatch(r -> r.name().equals(s.request()) && r.level() != null
            && r.level().kind() == protocols.stats.Level.Kind.REHEARSAL);
        warnings.add(new Warning(s.request(), Kind.NOT_SETTLED, "its 1-second windows were not steady after " + s.seconds()
            + " s of settling (" + (rehearsal ? "" : "-Dsettle ") + s.plan() + "): " + (rehearsal
            ? "the warm-up's rehearsal of a level's start ended there, and the first level may still start slow"
            : "measured anyway, so its first seconds may still be climbing; a fixed -Dsettle of more seconds gives it"
            + " longer")));
      }
    }
    for (RunInfo.WarmupOutcome w : warmups) {
      if (Boolean.FALSE.equals(w.stable())) {
        warnings.add(new Warning(w.request(), Kind.WARM_UP, "the automatic warm-up ended at its limit after "
            + w.seconds() + " s without reaching a stable throughput: the first level may still be warming up;"
            + " raise -DwarmupMax"));
      }
    }
    java.util.Set<String> faulted = new java.util.HashSet<>();
    faults.stream().filter(RunInfo.FaultOutcome::callsApart).forEach(f -> faulted.add(f.request()));
    for (RequestStats r : requests) {
      boolean warmup = !r.measured();
      CpuSampler.Shares shares = r.count() == 0 ? null
          : cpu.flatMap(c -> c.between(r.startNanos(), r.sendEndNanos(), ownServers.apply(r))).orElse(null);
      long[] full = fullWindows(r);
      double[] steadiness = steadiness(full);
      boolean fault = r.duringFault();
      Saturation saturation = r.isOpen() && !warmup && !fault && r.count() + r.open().dropped() > 0
          ? SaturationCheck.of(r, shares) : null;
      long[] p50s = r.isOpen() ? answered(r.p50Windows(), full.length) : new long[0];
      long[] p99s = r.isOpen() ? answered(r.p99Windows(), full.length) : new long[0];
      double[] latency = p50s.length >= MIN_WINDOWS ? steadiness(p50s) : new double[] {Double.NaN, Double.NaN};
      String notJudged = warmup ? null : fault ? FAULT_WINDOW_NOT_JUDGED
          : faulted.contains(r.name()) ? FAULTED_NOT_JUDGED : null;
      levels.add(new Assessment(r.name(), warmup, shares, full.length, steadiness[0], steadiness[1], latency[0],
          latency[1], saturation, notJudged));
      if (warmup || fault) {
        continue; // a warm-up or ramp is there to be unsteady, a fault to fail
      }
      boolean lab = r.level() != null; // a level of the lab's runner: its advice names the lab's -D parameters
      if (r.isOpen() && r.open().unsent() > 0) {
        warnings.add(new Warning(r.name(), Kind.SENDER_STOPPED, r.open().unsent() + " calls due were never sent ("
            + r.open().unsentReason() + "): the level offered less than its rate, and its figures are of the calls"
            + " that were sent"));
      }
      if (saturation != null && Saturation.INJECTOR.equals(saturation.limit())) {
        warnings.add(new Warning(r.name(), Kind.INJECTOR_SATURATED, "the injector could not keep to the schedule, so this"
            + " level measured the injector as much as the server: " + saturation.reason()));
      }
      if (r.ko() > 0) {
        warnings.add(new Warning(r.name(), Kind.KO, String.format(java.util.Locale.ROOT,
            "%d of %d calls failed (%.2f%%); latency figures are of OK calls only%s", r.ko(), r.count(),
            100.0 * r.ko() / r.count(), topReason(r))));
      }
      if (shares != null && shares.rest() > MAX_REST_SHARE) {
        warnings.add(new Warning(r.name(), Kind.BUSY_MACHINE, "other work used " + Numbers.pct(shares.rest())
            + " of the machine's CPU during this level (threshold " + Numbers.pct(MAX_REST_SHARE) + "; injector "
            + Numbers.pct(shares.injector()) + ", servers " + Numbers.pct(shares.servers()) + ", steal "
            + Numbers.pct(shares.steal()) + "): its figures measure a shared machine, not the framework"
            + (shares.servers() + shares.otherServers() < 0.001 ? "; no server process of the run's was seen: if"
                + " the server runs on this machine, -DserverPids=<pid> counts its CPU as the server's" : "")));
      }
      if (faulted.contains(r.name())) {
        continue; // its fault window is a hole in its windows: the faults table judges its recovery
      }
      int stalled = r.isOpen() ? -1 : stalledWindow(full, r.p50());
      if (stalled >= 0) {
        warnings.add(new Warning(r.name(), Kind.STALL, "completions fell to " + full[stalled] + " in second " + stalled
            + " (the level's median is " + median(full) + "/s): the server or client stalled. A closed loop stops"
            + " sending while it waits, so the calls that would have waited were never made and this level's"
            + " percentiles leave the stall out (coordinated omission); " + (lab ? "an open-model level (-Drates)"
                : "an open workload model") + " shows it"));
      } else if (r.count() > 0 && full.length < MIN_WINDOWS) {
        warnings.add(new Warning(r.name(), Kind.TOO_SHORT, "only " + full.length + " full 1-second windows (at least "
            + MIN_WINDOWS + " are needed to show a steady state): " + (lab ? "lengthen -Dduration" : "run it longer")));
      } else if (steadiness[0] > MAX_SPREAD || Math.abs(steadiness[1]) > MAX_TREND) {
        warnings.add(new Warning(r.name(), Kind.NOT_STEADY, "throughput was not at steady state: 1-second windows"
            + " spread " + againstLimit(steadiness[0], MAX_SPREAD) + " and " + (steadiness[1] >= 0 ? "rose " : "fell ")
            + againstLimit(steadiness[1], MAX_TREND) + " across the level; " + (lab
                ? unsteadyAdvice(settleOf.get(r.name()), shares)
                : "warm the client and the service up before the requests you measure, or run longer")));
      }
      boolean saturated = saturation != null && saturation.saturated(); // a queue that grows is its verdict
      (saturated ? Optional.<String>empty() : latencyDrift(p50s, p99s, latency)).ifPresent(why -> warnings.add(new Warning(r.name(), Kind.LATENCY_NOT_STEADY,
          "latency was not at steady state: " + why + "; a rate level's throughput is fixed by its schedule, so"
              + " its latency shows a client or server still warming up (or a queue building): "
              + (lab ? "lengthen -Dwarmup or -Dduration" : "warm up first, or run longer"))));
    }
    boolean sampled = levels.stream().anyMatch(l -> l.cpu() != null);
    return new RunAnalysis(levels, warnings, sampled ? Optional.empty() : Optional.of("the CPU was not sampled"));
  }

  /**
   * A figure (a fraction, its sign dropped) beside its limit, saying which side of it the figure lies:
   * {@code 15% (within the limit of 15%)}; in words, as whole percentages can round onto the limit.
   */
  static String againstLimit(double figure, double limit) {
    double f = Math.abs(figure);
    return String.format(java.util.Locale.ROOT, "%.0f%% (%s the limit of %.0f%%)", f * 100, f > limit ? "over"
        : "within", limit * 100);
  }

  /** What would help a level that was not steady, given its settle (null: none) and CPU shares. */
  static String unsteadyAdvice(RunInfo.WarmupOutcome settle, CpuSampler.Shares shares) {
    String busy = shares != null && shares.rest() > MAX_REST_SHARE / 2 ? "; other work took "
        + Numbers.pct(shares.rest()) + " of the machine meanwhile: a quieter machine would" : "";
    if (settle == null || settle.seconds() == 0) {
      return "it was measured from its first call: let it settle first (-Dsettle=auto, the default, or a number of"
          + " seconds)" + busy;
    }
    if (Boolean.FALSE.equals(settle.stable())) {
      return "it did not settle within " + settle.seconds() + " s (see its not-settled warning): a fixed -Dsettle of"
          + " more seconds" + busy;
    }
    return "it was measured after settling for " + settle.seconds() + " s (-Dsettle=" + settle.plan()
        + "), so the swing is within the level: a longer -Dduration averages it" + busy;
  }

  /**
   * A rate level's per-second p50 may spread and trend by at most this across its windows. Quiet warm
   * levels measured here: 6-7% spread, 12-19% trend; after a 4-second warm-up (the JIT still at work)
   * 44-52% and 120-144%.
   */
  static final double MAX_LATENCY_DRIFT = 0.30;
  /**
   * Per-second p99 is noisy (at 500 calls/s it is the 5th-slowest call of a second), so it is judged
   * by the median of the level's first third of windows against that of its last third: a factor of
   * this or more either way. Warm levels here: 0.75-1.1, with one at 0.1 (hiccups in its first 5 s).
   */
  static final double MAX_P99_FACTOR = 3;

  /** The first {@code n} of {@code windows} that had OK calls (a window without any has no latency). */
  private static long[] answered(long[] windows, int n) {
    return java.util.Arrays.stream(windows, 0, Math.min(n, windows.length)).filter(v -> v > 0).toArray();
  }

  /** Why a rate level's per-second latency was not steady, if it was not. */
  static Optional<String> latencyDrift(long[] p50s, long[] p99s, double[] p50Steadiness) {
    if (p50s.length < MIN_WINDOWS) {
      return Optional.empty();
    }
    if (p50Steadiness[0] > MAX_LATENCY_DRIFT || Math.abs(p50Steadiness[1]) > MAX_LATENCY_DRIFT) {
      return Optional.of("its per-second p50 went from " + thirdMedian(p50s, true) + " µs to "
          + thirdMedian(p50s, false) + " µs (medians of the first and last third of its seconds), spread "
          + againstLimit(p50Steadiness[0], MAX_LATENCY_DRIFT) + " and trend " + (p50Steadiness[1] >= 0 ? "+" : "-")
          + againstLimit(p50Steadiness[1], MAX_LATENCY_DRIFT) + " of its mean");
    }
    long first = thirdMedian(p99s, true);
    long last = thirdMedian(p99s, false);
    if (p99s.length >= MIN_WINDOWS && first > 0 && last > 0
        && (last >= MAX_P99_FACTOR * first || first >= MAX_P99_FACTOR * last)) {
      return Optional.of("its per-second p99 went from " + first + " µs to " + last + " µs (medians of the first and"
          + " last third of its seconds: a factor of " + MAX_P99_FACTOR + " or more)");
    }
    return Optional.empty();
  }

  /** The median of the first (or last) third of {@code values}, at least one value. */
  static long thirdMedian(long[] values, boolean firstThird) {
    int k = Math.max(1, values.length / 3);
    long[] part = firstThird ? java.util.Arrays.copyOfRange(values, 0, k)
        : java.util.Arrays.copyOfRange(values, values.length - k, values.length);
    return median(part);
  }

  /** A closed level's window with under this share of the median's completions: a stall, not noise. */
  static final double STALL_SHARE = 0.1;

  /**
   * Calls whose median takes at least this long (µs), streams say, complete in waves: a second without
   * completions is then how such calls end, not a stall (the first second of a stream level had none).
   */
  static final long LONG_CALL_MICROS = 500_000;

  /**
   * The first full window with fewer than {@link #STALL_SHARE} of the median's completions, or -1;
   * -1 also for calls of {@link #LONG_CALL_MICROS} or more ({@code p50Micros}).
   */
  static int stalledWindow(long[] full, long p50Micros) {
    if (full.length < MIN_WINDOWS || p50Micros >= LONG_CALL_MICROS) {
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

  /**
   * The level's complete 1-second windows of all completions (OK and KO) within its sending span: the
   * last, partial one is left out, and so are the seconds of its last replies after it stopped sending.
   */
  public static long[] fullWindows(RequestStats r) {
    int full = (int) Math.min(r.okWindows().length,
        Math.max(0, (r.sendEndNanos() - r.startNanos()) / 1_000_000_000L));
    long[] out = new long[full];
    for (int i = 0; i < full; i++) {
      out[i] = r.okWindows()[i] + (i < r.koWindows().length ? r.koWindows()[i] : 0);
    }
    return out;
  }

  /** {spread, trend}: standard deviation over mean, and the fitted line's change across the windows over the mean. */
  public static double[] steadiness(long[] windows) {
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

  private static String topReason(RequestStats r) {
    return r.koReasons().entrySet().stream().findFirst()
        .map(e -> "; most frequent: \"" + e.getKey() + "\" (" + e.getValue() + ")").orElse("");
  }
}
