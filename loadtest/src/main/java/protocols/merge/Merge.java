package protocols.merge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;
import protocols.stats.RunInfo;
import protocols.stats.LatencyRecorder;
import protocols.stats.RequestStats;
import protocols.load.RunAnalysis;
import protocols.stats.Warning;
import protocols.stats.Warning.Kind;
import protocols.stats.OpenStats;
import protocols.stats.Numbers;

/**
 * Several injectors' runs as one: per request name the HdrHistograms are added (exact percentiles,
 * not averaged ones), counts summed, the 1-second windows laid on one time line, and the
 * throughput is the sum of each injector's rate over the window every injector was in the level.
 * Pure: reads nothing, writes nothing (see {@link MergeCommand}).
 */
public final class Merge {
  /** An injector that started a level later than the first one by more than this is flagged. */
  static final long LATE_MILLIS = 1_000;
  /** An injector whose rate in the common window is under this share of the injectors' mean is flagged. */
  static final double SKEW_SHARE = 0.8;
  /** Injectors' own warnings that the merged figures cannot show again (no CPU samples, no per-second latency). */
  private static final Set<Kind> KEPT_INJECTOR_WARNINGS = EnumSet.of(Kind.BUSY_MACHINE, Kind.WARM_UP,
      Kind.INJECTOR_SATURATED, Kind.RECOVERY_NOT_SEEN, Kind.NO_RECOVERY, Kind.LATENCY_NOT_STEADY);
  static final String RUN = "(run)";

  private Merge() {}

  /** The merged requests, each request's per-injector rows, and what a reader must know before trusting them. */
  public record Result(List<RequestStats> requests, Map<String, List<RunInfo.InjectorLevel>> perInjector,
                       RunAnalysis analysis) {
    /** The merged levels' own warnings, then the merge's and the injectors' kept ones. */
    public List<Warning> warnings() {
      return analysis.warnings();
    }
  }

  /** Merges {@code runs} (at least one); {@code expected} injectors, or 0 to take the runs' own count. */
  public static Result of(List<InjectorRun> runs, int expected) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no run to merge");
    }
    List<Warning> warnings = new ArrayList<>(runWarnings(runs, expected));
    Set<String> names = new LinkedHashSet<>();
    runs.forEach(r -> r.requests().forEach(q -> names.add(q.name())));
    List<RequestStats> merged = new ArrayList<>();
    Map<String, List<RunInfo.InjectorLevel>> perInjector = new LinkedHashMap<>();
    Set<Integer> firstLevelChecked = new java.util.HashSet<>();
    for (String name : names) {
      List<InjectorRun> with = runs.stream().filter(r -> r.request(name).isPresent()).toList();
      boolean measured = with.get(0).request(name).orElseThrow().measured();
      if (with.size() < runs.size()) {
        warnings.add(new Warning(name, Kind.MISSING_LEVEL, "only " + labels(with) + " of the " + runs.size()
            + " injectors ran this level: its merged figures are theirs alone"));
      }
      List<RequestStats> parts = with.stream().map(r -> r.request(name).orElseThrow()).toList();
      Level level = level(name, parts);
      merged.add(level.stats);
      List<RunInfo.InjectorLevel> rows = new ArrayList<>();
      for (int i = 0; i < with.size(); i++) {
        InjectorRun run = with.get(i);
        RequestStats p = parts.get(i);
        double okRate = level.okRates[i];
        boolean slow = with.size() > 1 && measured && okRate < SKEW_SHARE * level.meanOkRate();
        long offset = p.startEpochMillis() - level.stats.startEpochMillis();
        rows.add(new RunInfo.InjectorLevel(run.index(), run.host(), p.count(), p.ko(),
            RequestStats.round(level.rates[i], 1), RequestStats.round(okRate, 1), p.p50(),
            p.p99(), p.max(), p.isOpen() ? p.open().dropped() : 0, offset, slow));
        if (p.count() == 0 || !measured) {
          continue;
        }
        if (slow) {
          warnings.add(new Warning(name, Kind.INJECTOR_SKEW, run.label() + " made " + Numbers.fmt(okRate, 0)
              + " OK calls/s in the common window, " + Numbers.pct(okRate / level.meanOkRate()) + " of the injectors'"
              + " mean: it was slower than the others (its own p99 " + p.p99() + " µs); look at its machine"));
        }
        if (offset > LATE_MILLIS) {
          warnings.add(new Warning(name, Kind.LATE_START, run.label() + " started this level "
              + Numbers.fmt(offset / 1000.0, 1) + " s after the first injector: the merged calls/s count only the "
              + Numbers.fmt(level.stats.durationSeconds(), 1) + " s all of them were in it"));
        }
        if (run.startAtEpochMillis() != null && firstLevelChecked.add(run.index())) {
          long late = p.startEpochMillis() - run.startAtEpochMillis();
          if (late > LATE_MILLIS) {
            warnings.add(new Warning(name, Kind.LATE_START, run.label() + " started its first level "
                + Numbers.fmt(late / 1000.0, 1) + " s after -DstartAt: its warm-up or start-up overran the start time"));
          }
        }
      }
      if (level.noCommonWindow && with.size() > 1 && measured) {
        warnings.add(new Warning(name, Kind.NO_COMMON_WINDOW, "the injectors were never in this level together for a"
            + " whole second: its calls/s are the sum of each injector's own, not of a load applied at once"));
      }
      perInjector.put(name, rows);
    }
    for (InjectorRun run : runs) {
      for (Warning w : run.warnings()) {
        if (KEPT_INJECTOR_WARNINGS.contains(w.kind())) {
          warnings.add(new Warning(w.request(), w.kind(), run.label() + ": " + w.message()));
        }
      }
    }
    RunAnalysis analysis = RunAnalysis.of(merged, Optional.empty(), List.of(), List.of()).withWarnings(warnings)
        .withCpuNotSampledBecause("the merge has no CPU samples; each injector's own report has its CPU shares and"
            + " its busy-machine warnings, which are kept here");
    return new Result(merged, perInjector, analysis);
  }

  private static final class Level {
    RequestStats stats;
    double[] rates;
    double[] okRates;
    boolean noCommonWindow;

    double meanOkRate() {
      double sum = 0;
      for (double r : okRates) {
        sum += r;
      }
      return okRates.length == 0 ? 0 : sum / okRates.length;
    }
  }

  /** One request name of several injectors as one. */
  static Level level(String name, List<RequestStats> parts) {
    Histogram ok = new Histogram(3);
    long count = 0;
    long ko = 0;
    long origin = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    long sendEnd = Long.MIN_VALUE;
    long commonStart = Long.MIN_VALUE;
    long commonEnd = Long.MAX_VALUE;
    Map<String, Long> reasons = new LinkedHashMap<>();
    for (RequestStats p : parts) {
      ok.add(p.decodeHistogram());
      count += p.count();
      ko += p.ko();
      p.koReasons().forEach((k, v) -> reasons.merge(k, v, Long::sum));
      if (p.count() > 0) {
        origin = Math.min(origin, p.startEpochMillis());
        end = Math.max(end, p.endEpochMillis());
        sendEnd = Math.max(sendEnd, p.sendEndEpochMillis());
        commonStart = Math.max(commonStart, p.startEpochMillis());
        commonEnd = Math.min(commonEnd, p.sendEndEpochMillis());
      }
    }
    Level level = new Level();
    if (origin == Long.MAX_VALUE) { // no injector made a call
      origin = end = sendEnd = commonStart = commonEnd = 0;
    }
    // The windows on one time line: each injector's shifted by its start's distance from the first's.
    int length = 0;
    for (RequestStats p : parts) {
      length = Math.max(length, shift(p, origin) + p.okWindows().length);
    }
    long[] okWindows = new long[length];
    long[] koWindows = new long[length];
    level.rates = new double[parts.size()];
    level.okRates = new double[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      RequestStats p = parts.get(i);
      int s = shift(p, origin);
      for (int k = 0; k < p.okWindows().length; k++) {
        okWindows[s + k] += p.okWindows()[k];
        koWindows[s + k] += k < p.koWindows().length ? p.koWindows()[k] : 0;
      }
      double[] rate = commonRate(p, commonStart, commonEnd);
      if (rate == null) {
        level.noCommonWindow = true;
        rate = new double[] {p.throughput(), p.okThroughput()};
      }
      level.rates[i] = rate[0];
      level.okRates[i] = rate[1];
    }
    double throughput = 0;
    double okThroughput = 0;
    for (int i = 0; i < parts.size(); i++) {
      throughput += level.rates[i];
      okThroughput += level.okRates[i];
    }
    OpenStats open = null;
    if (parts.stream().anyMatch(RequestStats::isOpen)) {
      Histogram response = new Histogram(3);
      Histogram lag = new Histogram(3);
      double offered = 0;
      int maxInFlight = 0;
      long dropped = 0;
      long unsent = 0;
      String unsentReason = null;
      for (RequestStats p : parts) {
        if (p.isOpen()) {
          response.add(p.open().decodeResponseHistogram());
          lag.add(p.open().decodeLagHistogram());
          offered += p.open().offered();
          maxInFlight += p.open().maxInFlight();
          dropped += p.open().dropped();
          unsent += p.open().unsent();
          unsentReason = unsentReason != null ? unsentReason : p.open().unsentReason();
        }
      }
      open = OpenStats.of(offered, maxInFlight, dropped, unsent, unsentReason, response, lag);
    }
    double common = Math.max(0, commonEnd - commonStart) / 1000.0;
    // Per-second percentiles cannot be merged from the injectors' own: the merged level has none.
    level.stats = RequestStats.of(name, count, ko, common, throughput, okThroughput, ok, reasons, okWindows,
        koWindows, new long[0], new long[0], origin * 1_000_000L, sendEnd * 1_000_000L, end * 1_000_000L, origin,
        sendEnd, end, open).withLevel(parts.get(0).level());
    return level;
  }

  private static int shift(RequestStats p, long origin) {
    return p.count() == 0 ? 0 : (int) Math.round((p.startEpochMillis() - origin) / 1000.0);
  }

  /**
   * {all, OK} responses per second of {@code p} over its whole 1-second windows that lie within
   * [{@code from}, {@code to}] (epoch ms), or null if none does.
   */
  static double[] commonRate(RequestStats p, long from, long to) {
    if (p.count() == 0) {
      return new double[] {0, 0};
    }
    long first = (long) Math.ceil(Math.max(0, from - p.startEpochMillis()) / 1000.0);
    long last = Math.floorDiv(to - p.startEpochMillis(), 1000L) - 1; // the last window that ends by 'to'
    long all = 0;
    long ok = 0;
    int windows = 0;
    for (long k = first; k <= last && k < p.okWindows().length; k++) {
      ok += p.okWindows()[(int) k];
      all += p.okWindows()[(int) k] + (k < p.koWindows().length ? p.koWindows()[(int) k] : 0);
      windows++;
    }
    return windows == 0 ? null : new double[] {all / (double) windows, ok / (double) windows};
  }

  private static List<Warning> runWarnings(List<InjectorRun> runs, int expected) {
    List<Warning> warnings = new ArrayList<>();
    InjectorRun first = runs.get(0);
    Set<Integer> indexes = new java.util.TreeSet<>();
    for (InjectorRun r : runs) {
      if (!indexes.add(r.index())) {
        warnings.add(new Warning(RUN, Kind.INJECTORS, "two runs are injector " + r.index() + " (" + r.folder()
            + "): the same run given twice, or injectors started with the same -Dinjector"));
      }
      if (r.interrupted()) {
        warnings.add(new Warning(RUN, Kind.INTERRUPTED, r.label() + " was interrupted: it covers only what it ran"));
      }
      if (!Objects.equals(r.startAtEpochMillis(), first.startAtEpochMillis())) {
        warnings.add(new Warning(RUN, Kind.SETTINGS_DIFFER, r.label() + " had -DstartAt " + startAt(r) + ", "
            + first.label() + " " + startAt(first) + ": they did not start together"));
      }
      differences("settings", first.settings(), r.settings()).forEach(d -> warnings.add(new Warning(RUN,
          Kind.SETTINGS_DIFFER, r.label() + " ran with " + d + ", unlike " + first.label() + ": its calls are not"
              + " the same load")));
      differences("protocol", protocols(first), protocols(r)).forEach(d -> warnings.add(new Warning(RUN,
          Kind.SETTINGS_DIFFER, r.label() + " ran with " + d + ", unlike " + first.label())));
    }
    int told = expected > 0 ? expected : first.count();
    if (runs.size() != told || runs.stream().anyMatch(r -> r.count() != told)) {
      warnings.add(new Warning(RUN, Kind.INJECTORS, runs.size() + " runs merged (" + labels(runs) + "), but "
          + (expected > 0 ? "-Dinjectors=" + expected + " were expected" : "the runs say " + told + " injectors")
          + ": a missing injector's load is missing from the merged figures"));
    }
    return warnings;
  }

  private static String startAt(InjectorRun r) {
    return r.startAtEpochMillis() == null ? "none" : java.time.Instant.ofEpochMilli(r.startAtEpochMillis()).toString();
  }

  private static Map<String, Object> protocols(InjectorRun r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Map<String, Object> p : r.protocols()) {
      p.forEach((k, v) -> m.put(p.getOrDefault("framework", "") + "." + k, v));
    }
    return m;
  }

  /** {@code kind name=value} for each entry of {@code b} that {@code a} does not have as is. */
  private static List<String> differences(String kind, Map<String, ?> a, Map<String, ?> b) {
    List<String> out = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>(a.keySet());
    keys.addAll(b.keySet());
    for (String k : keys) {
      if (!Objects.equals(String.valueOf(a.get(k)), String.valueOf(b.get(k)))) {
        out.add(kind + " " + k + "=" + (b.containsKey(k) ? b.get(k) : "(default)") + " (not " + (a.containsKey(k)
            ? a.get(k) : "(default)") + ")");
      }
    }
    return out;
  }

  private static String labels(Collection<InjectorRun> runs) {
    return String.join(", ", runs.stream().map(r -> "injector " + r.index()).toList());
  }
}
