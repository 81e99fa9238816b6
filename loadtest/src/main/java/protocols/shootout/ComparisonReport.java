package protocols.shootout;

import static protocols.stats.Numbers.fmt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import protocols.compare.Compare;
import protocols.load.RunAnalysis;
import protocols.load.SummaryListener;
import protocols.report.Comparison;
import protocols.report.TwoWays;
import protocols.report.ComparisonPage;
import protocols.report.Pages;
import protocols.report.RpcReportPage;
import protocols.rpc.InvocationMode;
import protocols.stats.CpuSampler;
import protocols.stats.Interval;
import protocols.stats.Intervals;
import protocols.stats.Level;
import protocols.stats.OpenStats;
import protocols.stats.RequestStats;
import protocols.stats.TrialStats;
import protocols.stats.RunContext;
import protocols.stats.Saturation;
import protocols.stats.Summaries;
import protocols.stats.Warning;
import protocols.stats.Warning.Kind;
import protocols.stats.profile.LevelProfile;
import protocols.stats.profile.Profiles;

/**
 * The write-ups' comparison from one run: {@code comparison.json}, {@code comparison.csv} and a
 * self-contained {@code comparison.html} in the run folder. Each row is one framework, mode and
 * level; throughput is compared with the ceiling's at the same level and mode and, when the plain
 * driver ran, with the plain driver's.
 */
public final class ComparisonReport implements SummaryListener {
  public static final String JSON = "comparison.json";
  public static final String CSV = "comparison.csv";
  /** With -Dprofile: each profiled level's breakdown by side and component. */
  public static final String PROFILES_CSV = "comparison-profiles.csv";
  public static final String HTML = "comparison.html";
  public static final String RATES_CSV = "comparison-rates.csv";
  /**
   * The plain driver is a baseline only when it measured something comparable: at least one call per
   * client and a throughput not far below Gatling's. Gatling adds work per call, so Gatling / plain
   * above this says the plain figure itself is low (a cold or starved JVM).
   */
  static final double MAX_MEANINGFUL_VS_PLAIN = 1.5;

  private final List<String> frameworks;
  private final List<InvocationMode> modes;
  private final List<Integer> levels;
  private final String ceiling;
  private final Map<String, String> parameters;
  /** Plain-driver summaries by {@link #key}. */
  private final Map<String, Path> plainResults;
  /** The frameworks' client library versions, by framework. */
  private final Map<String, String> frameworkVersions;
  /** The frameworks run two ways: directly and through their registry, in plaintext and over TLS. */
  private final List<TwoWays> twoWays;
  /** The ceiling's run each framework's run is compared with, where it is not {@link #ceiling} (its TLS twin). */
  private final Map<String, String> ceilingOf;
  private final long seed;
  /** The variants that are a framework at a payload size (-Dpayload): the payload charts; empty without. */
  private List<Comparison.PayloadPoint> payloads = List.of();
  private Map<String, Comparison.ClientLayout> layouts = Map.of();
  /** The run's profiles, told before the summary is written; null without -Dprofile. */
  private Profiles profiles;
  /** What the plain drivers' JVMs recorded (-Dprofile with -Dplain=true). */
  private PlainProfiles plainProfiles = PlainProfiles.NONE;

  public ComparisonReport(List<String> frameworks, Map<String, String> frameworkVersions, List<InvocationMode> modes,
                          List<Integer> levels, String ceiling, Map<String, String> parameters,
                          Map<String, Path> plainResults, List<TwoWays> twoWays) {
    this(frameworks, frameworkVersions, modes, levels, ceiling, parameters, plainResults, twoWays, Map.of(), 0);
  }

  /**
   * @param twoWays the frameworks run two ways: directly and through their registry, in plaintext and over TLS
   * @param ceilingOf the ceiling's run to compare a run with, by run name, where it is not {@code ceiling}:
   *     over TLS, the ceiling's run over TLS
   * @param seed the bootstrap's, for intervals over trials (-Dseed: the same run gives the same report)
   */
  public ComparisonReport(List<String> frameworks, Map<String, String> frameworkVersions, List<InvocationMode> modes,
                          List<Integer> levels, String ceiling, Map<String, String> parameters,
                          Map<String, Path> plainResults, List<TwoWays> twoWays, Map<String, String> ceilingOf,
                          long seed) {
    this.seed = seed;
    this.twoWays = List.copyOf(twoWays);
    this.ceilingOf = Map.copyOf(ceilingOf);
    this.frameworkVersions = new LinkedHashMap<>(frameworkVersions);
    this.frameworks = List.copyOf(frameworks);
    this.modes = List.copyOf(modes);
    this.levels = List.copyOf(levels);
    this.ceiling = ceiling;
    this.parameters = new LinkedHashMap<>(parameters);
    this.plainResults = new LinkedHashMap<>(plainResults);
  }

  /** The key of a plain-driver result. */
  public static String key(String framework, InvocationMode mode) {
    return framework + " " + mode.label();
  }

  /** comparison.json. */
  record File(String generated, boolean interrupted, List<Warning> warnings, String latencyUnit, String ceiling,
              Map<String, Object> machine, Map<String, String> versions, Map<String, String> parameters,
              String gatlingReport, String rpcReport, List<Comparison.Row> rows, List<Comparison.RateRow> rateRows,
              List<Comparison.Capacity> capacity, List<TwoWays> twoWays, List<TwoWays.Row> twoWaysRows,
              List<Comparison.Pair> pairs, List<Comparison.Resolution> resolutions, String profiler,
              List<Comparison.ProfileRow> profiles) {
  }

  static String plainFlag(int clients, double gatlingThroughput, RequestStats plain) {
    if (plain == null) {
      return null;
    }
    if (plain.count() < clients || plain.okThroughput() <= 0.01 * gatlingThroughput) {
      return "the plain driver measured " + plain.count() + " calls (" + fmt(plain.okThroughput(), 0)
          + " calls/s): no baseline";
    }
    if (gatlingThroughput / plain.okThroughput() > MAX_MEANINGFUL_VS_PLAIN) {
      return "Gatling / plain = " + fmt(gatlingThroughput / plain.okThroughput(), 2) + " (above "
          + MAX_MEANINGFUL_VS_PLAIN + "): the plain driver's " + fmt(plain.okThroughput(), 0)
          + " calls/s is too low to be a baseline";
    }
    return null;
  }

  /** With the variants that are a framework at a payload size, for the payload charts. */
  /** Each variant's client layout per mode (by {@link #key}): its rows say its connections and hops. */
  ComparisonReport withLayouts(Map<String, Comparison.ClientLayout> layouts) {
    this.layouts = Map.copyOf(layouts);
    return this;
  }

  ComparisonReport withPayloads(List<Comparison.PayloadPoint> points) {
    this.payloads = List.copyOf(points);
    return this;
  }

  /** The plain drivers' recordings, by {@link #key}: each level gets a side beside Gatling's. */
  ComparisonReport withPlainProfiles(PlainProfiles profiles) {
    this.plainProfiles = profiles;
    return this;
  }

  @Override
  public void profiled(Profiles profiles) {
    this.profiles = profiles;
  }

  /** The plain drivers' summaries that were written, by {@link #key}. */
  private Map<String, Summaries.Summary> plainSummaries() throws IOException {
    Map<String, Summaries.Summary> plain = new LinkedHashMap<>();
    for (Map.Entry<String, Path> e : plainResults.entrySet()) {
      if (Files.exists(e.getValue())) {
        plain.put(e.getKey(), Summaries.read(e.getValue()));
      }
    }
    return plain;
  }

  /** Each profiled level's sides, as values of the levels they are of. */
  private static List<Comparison.ProfileRow> profileRows(Profiles profiles, List<RequestStats> requests) {
    List<Comparison.ProfileRow> out = new ArrayList<>();
    if (profiles != null) {
      for (LevelProfile p : profiles.levels()) {
        requests.stream().filter(r -> r.name().equals(p.request()) && r.level() != null).findFirst()
            .ifPresent(r -> out.add(Comparison.ProfileRow.of(r.level(), p)));
      }
    }
    return out;
  }

  @Override
  public String what() {
    return "the comparison report";
  }

  @Override
  public List<String> written(Path folder, List<RequestStats> requests, RunAnalysis analysis,
                             boolean interrupted) throws IOException {
    Map<String, Summaries.Summary> plain = plainSummaries();
    List<Comparison.Row> rows = rows(requests, name -> analysis.level(name).map(RunAnalysis.Assessment::cpu)
        .filter(c -> c != null && c.seconds() > 0).orElse(null), plain);
    TrialComparison trials = new TrialComparison(requests, seed);
    List<Comparison.Pair> pairs = trials.pairs(frameworks, modes, levels);
    List<Comparison.Resolution> resolutions = trials.resolutions(frameworks, modes, levels);
    List<Warning> warnings = new ArrayList<>(analysis.warnings());
    rows.stream().filter(r -> r.plainFlag() != null)
        .forEach(r -> warnings.add(new Warning(r.level().name(), Kind.PLAIN_DRIVER, r.plainFlag())));
    Map<String, Object> machine = RunContext.machine();
    Map<String, String> versions = new LinkedHashMap<>(RunContext.versions());
    versions.putAll(frameworkVersions);
    List<Comparison.RateRow> rateRows = rateRows(requests, analysis);
    List<Comparison.Capacity> capacities = Comparison.capacities(rateRows);
    List<TwoWays.Row> twoWaysRows = TwoWays.rows(twoWays, rows, pairs);
    Profiles sides = plainProfiles.besideGatling(profiles, frameworks, modes, plain, folder);
    List<Comparison.ProfileRow> profileRows = profileRows(sides, requests);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
        new File(Pages.now(), interrupted, warnings, "microseconds", ceiling, machine, versions, parameters,
            "index.html", RpcReportPage.FILE, rows, rateRows, capacities, twoWays, twoWaysRows, pairs, resolutions,
            sides == null ? null : sides.profiler(), profileRows));
    Files.writeString(folder.resolve(CSV), Comparison.csv(rows), StandardCharsets.UTF_8);
    if (sides != null) {
      Files.writeString(folder.resolve(PROFILES_CSV), Comparison.profilesCsv(profileRows), StandardCharsets.UTF_8);
    }
    if (!rateRows.isEmpty()) {
      Files.writeString(folder.resolve(RATES_CSV), Comparison.ratesCsv(rateRows), StandardCharsets.UTF_8);
      System.out.print(Comparison.capacityTable(capacities));
    }
    ComparisonPage.Run run = new ComparisonPage.Run(frameworks, modes, levels, ceiling, machine, versions, parameters,
        interrupted, payloads);
    Files.writeString(folder.resolve(HTML), ComparisonPage.render(run, rows, rateRows, capacities,
        twoWays, twoWaysRows, requests, warnings, analysis.cpuNotSampled(),
        analysis.notJudged(), pairs, resolutions, sides), StandardCharsets.UTF_8);
    for (TwoWays.Contrast contrast : TwoWays.Contrast.values()) {
      System.out.print(TwoWays.table(contrast, twoWays, twoWaysRows));
    }
    // The plain drivers' results and logs move into the run's folder, their recordings beside Gatling's;
    // their temporary folder goes.
    for (Path dir : plainResults.values().stream().map(Path::getParent).distinct().toList()) {
      if (Files.isDirectory(dir) && !Files.isSameFile(dir, folder)) {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
          for (Path f : files.toList()) {
            Path to = sides != null && plainProfiles.recordings().containsValue(f) ? folder.resolve("profiles") : folder;
            Files.move(f, Files.createDirectories(to).resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
          }
        }
        protocols.rpc.TempFolders.delete(dir);
      }
    }
    if (!plainResults.isEmpty()) {
      System.out.print(Comparison.efficiencyTable(rows));
      System.out.print(Comparison.harnessProfileTable(profileRows.stream().sorted(java.util.Comparator
          .comparingInt((Comparison.ProfileRow r) -> frameworks.indexOf(r.framework()))
          .thenComparingInt(Comparison.ProfileRow::clients)).toList()));
    }
    System.out.print(Comparison.pairsTable(pairs));
    System.out.print(Comparison.resolutionLines(resolutions));
    System.out.println("Comparison report: " + folder.resolve(HTML).toAbsolutePath());
    return List.of();
  }

  List<Comparison.Row> rows(List<RequestStats> gatling) throws IOException {
    return rows(gatling, name -> null);
  }

  /**
   * @param cpu where the CPU went over a level (the Gatling JVM's share, the servers'), by request name;
   *     null where it was not measured
   */
  List<Comparison.Row> rows(List<RequestStats> gatling, Function<String, CpuSampler.Shares> cpu) throws IOException {
    return rows(gatling, cpu, plainSummaries());
  }

  /** As above, with the plain drivers' summaries by {@link #key}. */
  private List<Comparison.Row> rows(List<RequestStats> gatling, Function<String, CpuSampler.Shares> cpu,
                                    Map<String, Summaries.Summary> plain) {
    TrialComparison trials = new TrialComparison(gatling, seed);
    List<Comparison.Row> rows = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        Summaries.Summary p = plain.get(key(framework, mode));
        // The plain driver's levels over their trials, grouped as Gatling's are.
        TrialComparison plainTrials = new TrialComparison(p == null ? List.of() : p.requests(), seed);
        Map<String, Double> plainCpu = p == null || p.run() == null || p.run().cpuMicrosPerCall() == null ? Map.of()
            : p.run().cpuMicrosPerCall();
        for (int clients : levels) {
          Level level = Level.closed(framework, clients, mode);
          List<RequestStats> ts = trials.of(level);
          if (ts.isEmpty()) {
            continue; // not reached: an interrupted run
          }
          // Over trials, the trial whose calls/s is the median stands for the level (its figures are one run's).
          RequestStats s = TrialComparison.median(ts);
          Comparison.Spread spread = trials.spread(level, cpu);
          // Calls served are OK calls: a framework that fails fast must not rank higher (its KOs stand beside).
          double served = spread == null ? s.okThroughput() : spread.throughput().mid();
          double ceilingServed = trials.medianThroughput(Level.closed(ceilingOf.getOrDefault(framework, ceiling),
              clients, mode));
          Double ceilingRatio = ceilingServed > 0 ? Double.valueOf(served / ceilingServed) : null;
          Level plainLevel = Level.closed(null, clients, mode);
          List<RequestStats> pts = plainTrials.of(plainLevel);
          RequestStats pl = pts.isEmpty() ? null : TrialComparison.median(pts);
          String flag = plainFlag(clients, served, pl);
          Double plainThroughput = pl == null ? null : plainTrials.medianThroughput(plainLevel);
          Interval overPlain = plainThroughput == null || flag != null ? null
              : overPlain(Compare.Figure.CALLS_PER_SECOND, ts, s, pts, pl);
          Interval p50OverPlain = plainThroughput == null || flag != null || !s.hasOkCalls() ? null
              : overPlain(Compare.Figure.P50, ts, s, pts, pl);
          // The ratio beside its interval is the interval's own centre, as every pair's.
          Double vsPlain = plainThroughput == null || flag != null ? null
              : overPlain != null ? Double.valueOf(overPlain.mid()) : Double.valueOf(served / plainThroughput);
          double[] plainCpus = pts.stream().map(r -> plainCpu.get(r.name())).filter(java.util.Objects::nonNull)
              .mapToDouble(Double::doubleValue).toArray();
          CpuSampler.Shares shares = cpu.apply(s.name());
          double servedThen = s.okThroughput(); // the median trial's own, for its own CPU shares
          Double gatlingCpu = spread != null && spread.cpuPerCall() != null ? Double.valueOf(spread.cpuPerCall().mid())
              : shares == null || servedThen <= 0 ? null : shares.injectorCores() * 1e6 / servedThen;
          Double serverCpu = shares == null || servedThen <= 0 ? null : shares.serverCores() * 1e6 / servedThen;
          long calls = ts.stream().mapToLong(RequestStats::count).sum(); // every trial's: a KO in any counts
          Long p50 = spread != null && s.hasOkCalls() ? Long.valueOf(Math.round(spread.p50().mid()))
              : s.hasOkCalls() ? s.p50() : null;
          Long p99 = spread != null && s.hasOkCalls() ? Long.valueOf(Math.round(spread.p99().mid()))
              : s.hasOkCalls() ? s.p99() : null;
          Comparison.ClientLayout layout = layouts.get(key(framework, mode));
          rows.add(new Comparison.Row(level, calls / clients, calls,
              ts.stream().mapToDouble(RequestStats::durationSeconds).sum(), served,
              ts.stream().mapToLong(RequestStats::ko).sum(), p50, p99, s.hasOkCalls() ? s.p999() : null, ceilingRatio,
              plainThroughput, vsPlain, flag, gatlingCpu, plainCpus.length == 0 ? null
              : Double.valueOf(TrialStats.medianOf(plainCpus)), serverCpu, spread, overPlain, p50OverPlain,
              layout == null ? null : layout.connections(), layout == null ? null : layout.hopsPerCall()));
        }
      }
    }
    return rows;
  }

  /**
   * Gatling's {@code figure} over the plain driver's with a 95% interval: over both sides' trials where
   * each has two or more (measured apart, in different JVMs: unpaired), else from the median trials'
   * 1-second windows; null where either has too few.
   */
  private static Interval overPlain(Compare.Figure figure, List<RequestStats> gatlingTrials, RequestStats gatling,
                                    List<RequestStats> plainTrials, RequestStats plain) {
    Interval r = gatlingTrials.size() >= 2 && plainTrials.size() >= 2
        ? TrialStats.unpairedRatio(plainTrials.stream().mapToDouble(figure::of).toArray(),
            gatlingTrials.stream().mapToDouble(figure::of).toArray())
        : Intervals.ratio(Intervals.ofWindows(figure.windows(plain)), Intervals.ofWindows(figure.windows(gatling)));
    return Double.isNaN(r.lo()) || Double.isNaN(r.hi()) ? null : r;
  }

  /** The open-model levels of each framework and mode, in offered-rate order. */
  List<Comparison.RateRow> rateRows(List<RequestStats> requests, RunAnalysis analysis) {
    List<Comparison.RateRow> out = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        ComparisonPage.openLevels(requests, framework, mode).forEach(r -> {
          Saturation sat = analysis.level(r.name()).map(RunAnalysis.Assessment::saturation).orElse(null);
          OpenStats o = r.open();
          out.add(new Comparison.RateRow(r.level(), o.offered(), r.okThroughput(), o.dropped(), r.ko(), o.lagP50(),
              o.lagP99(), r.p50(), r.p99(), o.responseP50(), o.responseP99(), o.responseP999(),
              sat != null && sat.saturated(), sat == null ? null : sat.limit(), sat == null ? null : sat.reason()));
        });
      }
    }
    return out;
  }
}
