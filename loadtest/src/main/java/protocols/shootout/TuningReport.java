package protocols.shootout;

import static protocols.stats.Numbers.fmt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import protocols.lab.RpcFramework;
import protocols.load.RunAnalysis;
import protocols.load.SummaryListener;
import protocols.report.Comparison;
import protocols.report.Pages;
import protocols.rpc.InvocationMode;
import protocols.stats.CpuSampler;
import protocols.stats.Interval;
import protocols.stats.Level;
import protocols.stats.RequestStats;
import protocols.stats.RunContext;
import protocols.stats.Verdict;
import protocols.stats.Warning;

/**
 * RpcTuning's report: {@code tuning.json}, {@code tuning.csv} and {@code tuning.html} in the run
 * folder. A row per framework, configuration and level with its figures and their intervals over
 * trials, and its calls/s, p50 and p99 over the framework's defaults (paired by round) with verdicts;
 * each level's best configuration; each knob's effect around the base, and the knobs that made none.
 */
final class TuningReport implements SummaryListener {
  static final String JSON = "tuning.json";
  static final String CSV = "tuning.csv";
  static final String HTML = "tuning.html";

  private final List<Configuration> configurations;
  private final Map<String, String> serverSettings;
  private final InvocationMode mode;
  private final List<Integer> levels;
  private final Map<String, String> parameters;
  private final long seed;

  /**
   * @param serverSettings what each configuration's server said it runs, by configuration name
   * @param seed the bootstrap's, for intervals over trials
   */
  TuningReport(List<Configuration> configurations, Map<String, String> serverSettings, InvocationMode mode,
               List<Integer> levels, Map<String, String> parameters, long seed) {
    this.configurations = List.copyOf(configurations);
    this.serverSettings = Map.copyOf(serverSettings);
    this.mode = mode;
    this.levels = List.copyOf(levels);
    this.parameters = new LinkedHashMap<>(parameters);
    this.seed = seed;
  }

  /**
   * A configuration at a level: calls/s, p50 and p99 (µs) and the injector's CPU µs per call, each the
   * median over trials with its interval; and its figures over the defaults' (null for the defaults).
   */
  record Row(String framework, String configuration, String knob, String value, String side, boolean base,
             boolean defaults, int clients, int trials, long calls, long ko, Interval callsPerSecond, Interval p50,
             Interval p99, Interval cpuPerCall, Interval vsDefaults, Verdict verdict, Interval p50VsDefaults,
             Verdict p50Verdict, Interval p99VsDefaults, Verdict p99Verdict, String server, int warnings) {
  }

  /** A framework's best configuration at a level: the fastest one measurably faster than the defaults, else the defaults. */
  record Best(String framework, int clients, String configuration, Interval vsDefaults, String why) {
  }

  /**
   * One knob, swept around the base: the value that was faster than the base at some level, slower at
   * none and without a KO (null: none was), and whether any value changed calls/s at any level.
   */
  record Knob(String framework, String property, String side, String does, String defaultValue, String baseValue,
              List<String> tried, String fasterValue, boolean madeADifference, List<String> effects) {
  }

  record File(String generated, boolean interrupted, List<Warning> warnings, String latencyUnit,
              Map<String, Object> machine, Map<String, String> versions, Map<String, String> parameters,
              String strategy, List<Row> rows, List<Best> best, List<Knob> knobs,
              Map<String, Map<String, String>> tuned,
              List<Comparison.Resolution> resolutions) {
  }

  static final String STRATEGY = "one knob at a time around the base (the knobs' values as given, else each"
      + " framework's defaults); every configuration against the defaults, paired by round; a knob made a"
      + " difference where a value's calls/s interval against the base lies outside the noise floor";

  @Override
  public String what() {
    return "the tuning report";
  }

  @Override
  public List<String> written(Path folder, List<RequestStats> requests, RunAnalysis analysis, boolean interrupted)
      throws IOException {
    TrialComparison trials = new TrialComparison(requests, seed);
    Function<String, CpuSampler.Shares> cpu = name -> analysis.level(name).map(RunAnalysis.Assessment::cpu)
        .filter(c -> c != null && c.seconds() > 0).orElse(null);
    Set<String> warned = analysis.warnings().stream().map(Warning::request).collect(Collectors.toSet());
    List<Row> rows = rows(trials, cpu, warned);
    List<Best> best = best(rows);
    List<Knob> knobs = knobs(trials);
    Map<String, Map<String, String>> tuned = tuned(knobs);
    List<Comparison.Resolution> resolutions = trials.resolutions(configurations.stream().map(Configuration::name)
        .toList(), List.of(mode), levels);
    Map<String, String> versions = new LinkedHashMap<>(RunContext.versions());
    configurations.stream().map(Configuration::framework).distinct()
        .forEach(f -> versions.put(f.name(), f.version()));
    File file = new File(Pages.now(), interrupted, analysis.warnings(), "microseconds", RunContext.machine(), versions,
        parameters, STRATEGY, rows, best, knobs, tuned, resolutions);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(), file);
    Files.writeString(folder.resolve(CSV), csv(rows), StandardCharsets.UTF_8);
    Files.writeString(folder.resolve(HTML), page(file, analysis), StandardCharsets.UTF_8);
    System.out.print(console(rows, best, knobs, tuned));
    System.out.print(Comparison.resolutionLines(resolutions));
    System.out.println("Tuning report: " + folder.resolve(HTML).toAbsolutePath());
    return List.of();
  }

  /** @param warned the requests (levels) with a validity warning: a row counts its own trials' */
  List<Row> rows(TrialComparison trials, Function<String, CpuSampler.Shares> cpu, Set<String> warned) {
    List<Row> out = new ArrayList<>();
    for (Configuration c : configurations) {
      String defaults = defaultsOf(c).name();
      for (int clients : levels) {
        Level level = Level.closed(c.name(), clients, mode);
        List<RequestStats> ts = trials.of(level);
        if (ts.isEmpty()) {
          continue; // not reached: an interrupted run
        }
        Comparison.Spread spread = trials.spread(level, cpu);
        RequestStats s = TrialComparison.median(ts); // of one trial: that trial
        Interval calls = spread != null ? spread.throughput() : once(s.okThroughput());
        Interval p50 = spread != null ? spread.p50() : once(s.hasOkCalls() ? s.p50() : Double.NaN);
        Interval p99 = spread != null ? spread.p99() : once(s.hasOkCalls() ? s.p99() : Double.NaN);
        CpuSampler.Shares shares = cpu.apply(s.name());
        Interval cpuPerCall = spread != null ? spread.cpuPerCall() : shares == null || s.okThroughput() <= 0 ? null
            : once(shares.injectorCores() * 1e6 / s.okThroughput());
        Comparison.Pair vs = c.defaults() ? null : pair(trials, defaults, c.name(), clients).orElse(null);
        RpcFramework.Param k = c.knob();
        out.add(new Row(c.framework().name(), c.name(), k == null ? null : k.property(), c.movedValue(),
            k == null ? null : k.side().label(), c.base(), c.defaults(),
            clients, ts.size(), ts.stream().mapToLong(RequestStats::count).sum(),
            ts.stream().mapToLong(RequestStats::ko).sum(), calls, p50, p99, cpuPerCall,
            vs == null ? null : vs.throughputRatio(), vs == null ? null : vs.throughputVerdict(),
            vs == null ? null : vs.p50Ratio(), vs == null ? null : vs.p50Verdict(),
            vs == null ? null : vs.p99Ratio(), vs == null ? null : vs.p99Verdict(), serverSettings.get(c.name()),
            (int) ts.stream().filter(t -> warned.contains(t.name())).count()));
      }
    }
    return out;
  }

  private Configuration defaultsOf(Configuration c) {
    return configurations.stream().filter(d -> d.framework() == c.framework() && d.defaults()).findFirst()
        .orElseThrow();
  }

  private Configuration baseOf(Configuration c) {
    return configurations.stream().filter(d -> d.framework() == c.framework() && d.base()).findFirst()
        .orElseThrow();
  }

  private Optional<Comparison.Pair> pair(TrialComparison trials, String baseline, String candidate, int clients) {
    return trials.pairs(List.of(baseline, candidate), List.of(mode), List.of(clients)).stream().findFirst();
  }

  private static Interval once(double value) {
    return new Interval(Double.NaN, value, Double.NaN, "one trial");
  }

  /** Per framework and level: the configuration with the highest calls/s among those faster than the defaults. */
  static List<Best> best(List<Row> rows) {
    List<Best> out = new ArrayList<>();
    Map<String, Map<Integer, List<Row>>> by = new LinkedHashMap<>();
    rows.forEach(r -> by.computeIfAbsent(r.framework(), k -> new LinkedHashMap<>())
        .computeIfAbsent(r.clients(), k -> new ArrayList<>()).add(r));
    by.forEach((framework, levels) -> levels.forEach((clients, rs) -> {
      // A configuration that failed calls is not a best, however many it served.
      Optional<Row> faster = rs.stream().filter(r -> r.verdict() == Verdict.FASTER && r.ko() == 0)
          .max(Comparator.comparingDouble(r -> r.vsDefaults().mid()));
      out.add(faster.map(r -> new Best(framework, clients, r.configuration(), r.vsDefaults(),
              "the fastest of those measurably faster than the defaults, without a KO" + (r.warnings() == 0 ? ""
                  : "; " + r.warnings() + " of its trials with a validity warning: run it again before trusting it")))
          .orElseGet(() -> new Best(framework, clients, rs.stream().filter(Row::defaults).findFirst()
              .map(Row::configuration).orElse(framework), null, "no configuration measurably faster than the"
              + " defaults" + rs.stream().filter(r -> r.vsDefaults() != null)
              .max(Comparator.comparingDouble(r -> r.vsDefaults().mid()))
              .map(r -> " (the highest median: " + r.configuration() + ", " + r.vsDefaults().withBounds(3) + ")")
              .orElse(""))));
    }));
    return out;
  }

  /** Each swept knob's effect around the base: per value and level, its calls/s over the base's and the verdict. */
  List<Knob> knobs(TrialComparison trials) {
    List<Knob> out = new ArrayList<>();
    Map<String, List<Configuration>> byKnob = new LinkedHashMap<>();
    for (Configuration c : configurations) {
      if (c.knob() != null) {
        byKnob.computeIfAbsent(c.framework().name() + "\u0000" + c.knob().property(), k -> new ArrayList<>()).add(c);
      }
    }
    for (List<Configuration> cs : byKnob.values()) {
      Configuration first = cs.get(0);
      Configuration base = baseOf(first);
      var knob = first.knob();
      boolean mattered = false;
      String fasterValue = null;
      double fasterMean = 1;
      List<String> effects = new ArrayList<>();
      for (Configuration c : cs) {
        String value = c.values().get(knob.property());
        boolean slowerSomewhere = false;
        int faster = 0;
        double sum = 0;
        int n = 0;
        long ko = 0;
        for (int clients : levels) {
          ko += trials.of(Level.closed(c.name(), clients, mode)).stream().mapToLong(RequestStats::ko).sum();
          Optional<Comparison.Pair> p = pair(trials, base.name(), c.name(), clients);
          if (p.isEmpty()) {
            continue;
          }
          Comparison.Pair pair = p.get();
          effects.add(value + " at " + clients + " clients: " + pair.throughputRatio().withBounds(2) + " "
              + pair.throughputVerdict());
          mattered |= pair.throughputVerdict() == Verdict.FASTER || pair.throughputVerdict() == Verdict.SLOWER;
          slowerSomewhere |= pair.throughputVerdict() == Verdict.SLOWER;
          faster += pair.throughputVerdict() == Verdict.FASTER ? 1 : 0;
          sum += pair.throughputRatio().mid();
          n++;
        }
        if (ko > 0) {
          effects.add(value + ": " + ko + " KO");
        }
        if (faster > 0 && !slowerSomewhere && ko == 0 && sum / n > fasterMean) {
          fasterValue = value;
          fasterMean = sum / n;
        }
      }
      out.add(new Knob(first.framework().name(), knob.property(), knob.side().label(), knob.does(),
          knob.defaultValue(), base.values().get(knob.property()), knob.tried(), fasterValue, mattered, effects));
    }
    return out;
  }

  /**
   * Per framework, each swept knob at the value that was faster than the base where one was, else at the
   * base's: the next sweep's base (as -D parameters), and what {@code RpcShootout -Dtuned} runs.
   */
  static Map<String, Map<String, String>> tuned(List<Knob> knobs) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    knobs.forEach(k -> out.computeIfAbsent(k.framework(), f -> new LinkedHashMap<>())
        .put(k.property(), k.fasterValue() != null ? k.fasterValue() : k.baseValue()));
    return out;
  }

  static String csv(List<Row> rows) {
    StringBuilder sb = new StringBuilder("framework,configuration,knob,value,side,clients,trials,calls,ko,calls_per_s,"
        + "calls_per_s_low,calls_per_s_high,p50_us,p50_low,p50_high,p99_us,p99_low,p99_high,cpu_us_per_call,"
        + "vs_defaults,vs_defaults_low,vs_defaults_high,verdict,p50_vs_defaults,p50_verdict,p99_vs_defaults,"
        + "p99_verdict,warnings\n");
    for (Row r : rows) {
      sb.append(String.join(",", List.of(r.framework(), quoted(r.configuration()), nz(r.knob()), nz(r.value()),
          nz(r.side()), Integer.toString(r.clients()), Integer.toString(r.trials()), Long.toString(r.calls()),
          Long.toString(r.ko()), num(r.callsPerSecond(), 1), lo(r.callsPerSecond(), 1), hi(r.callsPerSecond(), 1),
          num(r.p50(), 0), lo(r.p50(), 0), hi(r.p50(), 0), num(r.p99(), 0), lo(r.p99(), 0), hi(r.p99(), 0),
          num(r.cpuPerCall(), 1), num(r.vsDefaults(), 3), lo(r.vsDefaults(), 3), hi(r.vsDefaults(), 3),
          r.verdict() == null ? "" : r.verdict().label(), num(r.p50VsDefaults(), 3),
          r.p50Verdict() == null ? "" : r.p50Verdict().label(), num(r.p99VsDefaults(), 3),
          r.p99Verdict() == null ? "" : r.p99Verdict().label(), Integer.toString(r.warnings())))).append('\n');
    }
    return sb.toString();
  }

  private static String quoted(String s) {
    return s.contains(",") ? '"' + s + '"' : s;
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  private static String num(Interval i, int digits) {
    return i == null || Double.isNaN(i.mid()) ? "" : fmt(i.mid(), digits);
  }

  private static String lo(Interval i, int digits) {
    return i == null || !i.hasBounds() ? "" : fmt(i.lo(), digits);
  }

  private static String hi(Interval i, int digits) {
    return i == null || !i.hasBounds() ? "" : fmt(i.hi(), digits);
  }

  /** The console's tables: each framework's configurations against its defaults, its best, and its knobs. */
  static String console(List<Row> rows, List<Best> best, List<Knob> knobs, Map<String, Map<String, String>> tuned) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%nTuning (calls/s median [95%% interval]; over the defaults, paired by"
        + " round)%n%-44s %7s %26s %28s %s%n", "configuration", "clients", "calls/s", "over the defaults", "verdict"));
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "%-44s %7d %26s %28s %s%s%n", r.configuration(), r.clients(),
          r.callsPerSecond().withBounds(0), r.vsDefaults() == null ? "(the defaults)" : r.vsDefaults().withBounds(3),
          r.verdict() == null ? "" : r.verdict().label(), r.warnings() == 0 ? "" : " (" + r.warnings() + " warned)"));
    }
    for (Best b : best) {
      sb.append(String.format(Locale.ROOT, "Best %s at %d clients: %s%s (%s)%n", b.framework(), b.clients(),
          b.configuration(), b.vsDefaults() == null ? "" : ", " + b.vsDefaults().withBounds(3) + " of the defaults'"
              + " calls/s", b.why()));
    }
    for (Knob k : knobs) {
      sb.append(String.format(Locale.ROOT, "Knob %s %s (%s): %s%n", k.framework(), k.property(), k.side(),
          k.madeADifference()
          ? (k.fasterValue() == null ? "made a difference; no value faster than " + k.baseValue()
          : k.fasterValue() + " faster than " + k.baseValue()) : "no difference shown at any level"));
    }
    if (!tuned.isEmpty()) {
      sb.append("Next sweep around the values found: ").append(nextSweep(tuned))
          .append("\nThese beside the defaults: RpcShootout -Dtuned=").append(JSON).append(" (this run's)\n");
    }
    return sb.toString();
  }

  /**
   * The next run's -D values: each knob once; a knob several frameworks share (-Dconnections) with
   * different values per framework is named with each, since one -D sets them all.
   */
  static String nextSweep(Map<String, Map<String, String>> tuned) {
    Map<String, Map<String, String>> byKnob = new LinkedHashMap<>();
    tuned.forEach((framework, knobs) -> knobs.forEach((k, v) -> byKnob.computeIfAbsent(k, x -> new LinkedHashMap<>())
        .put(framework, v)));
    List<String> out = new ArrayList<>();
    byKnob.forEach((k, values) -> out.add(values.values().stream().distinct().count() == 1
        ? "-D" + k + "=" + values.values().iterator().next()
        : "-D" + k + "=(" + String.join(", ", values.entrySet().stream().map(e -> e.getValue() + " for "
            + e.getKey()).toList()) + ": one -D sets every framework's, so sweep them apart)"));
    return String.join(" ", out);
  }

  private static String page(File file, RunAnalysis analysis) {
    Map<String, Object> model = new LinkedHashMap<>();
    model.put("cpuNotSampled", analysis.cpuNotSampled().orElse(null));
    model.put("notJudged", analysis.notJudged());
    model.put("title", "RPC tuning");
    model.put("file", file);
    model.put("rows", file.rows());
    model.put("best", file.best());
    model.put("knobs", file.knobs());
    model.put("tuned", file.tuned());
    model.put("warnings", file.warnings());
    model.put("parameters", file.parameters());
    model.put("machine", file.machine());
    model.put("versions", file.versions());
    model.put("resolutions", file.resolutions());
    return Pages.render("tuning", model);
  }
}
