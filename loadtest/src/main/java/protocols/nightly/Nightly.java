package protocols.nightly;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import protocols.stats.Level;
import protocols.rpc.InvocationMode;
import protocols.stats.LatencyRecorder;
import protocols.lab.LoadParams;
import protocols.load.RunAnalysis;
import protocols.stats.RunContext;
import protocols.load.SummaryListener;
import protocols.nightly.Regression.Better;
import protocols.stats.RequestStats;
import protocols.stats.TrialStats;

/**
 * The nightly run's gates, history and trend, once the shootout's summary is written: per framework
 * and level a KO gate, the checked-in absolute limits, a regression gate for calls/s and for p99
 * against the previous nights, and the validity warnings; a JUnit XML file of them; one history record
 * appended; trend.html. A failed gate makes the run exit with status 2 after its reports.
 */
public final class Nightly implements SummaryListener {
  public static final String JUNIT = "nightly-gates.xml";
  public static final String TREND = "trend.html";
  /** Markdown for a CI job summary (GitHub's $GITHUB_STEP_SUMMARY). */
  public static final String SUMMARY = "nightly-summary.md";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One framework at one level tonight ({@code level} null for the run as a whole); {@code windows}
   * full 1-second windows, whose calls/s spread by {@code spread} and whose per-second p99 by
   * {@code p99Spread} (standard deviation over mean): its noise.
   */
  public record Tonight(Level level, double callsPerSecond, long p50, long p99, long ko, long count,
                        List<String> warnings, int windows, double spread, double p99Spread) {
    /** The run as a whole, for a gate of the run's own. */
    static final Tonight RUN = new Tonight(null, 0, 0, 0, 0, 0, List.of(), 0, 0, 0);

    /** What the gates and the history call it: {@code grpc 50 clients (async)}. */
    String key() {
      return level == null ? "run" : level.framework() + " " + level.label() + " (" + level.mode().label() + ")";
    }

    String framework() {
      return level == null ? "run" : level.framework();
    }
  }

  /** One gate on one level. */
  public record Gate(Tonight level, String name, boolean passed, String message) {
  }

  private final List<String> frameworks;
  private final List<Integer> levels;
  private final List<InvocationMode> modes;
  private final Path history;
  private final int nights;
  private final int minNights;
  private final double throughputFloor;
  private final double p99Floor;
  private final boolean failOnWarnings;
  private final JsonNode limits;

  public Nightly(List<String> frameworks, LoadParams params) {
    this.frameworks = List.copyOf(frameworks);
    this.levels = params.levels();
    this.modes = params.modes();
    this.history = Paths.get(params.string("history", "nightly-history.jsonl"));
    this.nights = params.intParam("historyNights", 7, 1, 1_000);
    this.minNights = params.intParam("minNights", 2, 1, 1_000);
    this.throughputFloor = params.intParam("throughputMarginPercent", 10, 0, 99) / 100.0;
    this.p99Floor = params.intParam("p99MarginPercent", 25, 0, 10_000) / 100.0;
    this.failOnWarnings = params.bool("failOnWarnings", false);
    this.limits = readLimits(params.string("gates", ""));
  }

  /** {@code -Dgates=file}, else the checked-in nightly-gates.json; per framework and level. */
  static JsonNode readLimits(String file) {
    try {
      if (!file.isEmpty()) {
        return JSON.readTree(Paths.get(file).toFile());
      }
      try (InputStream in = Nightly.class.getClassLoader().getResourceAsStream("nightly-gates.json")) {
        return in == null ? JSON.createObjectNode() : JSON.readTree(in);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("-Dgates: cannot read " + (file.isEmpty() ? "nightly-gates.json" : file)
          + ": " + e.getMessage().lines().findFirst().orElse(""));
    }
  }

  @Override
  public String what() {
    return "the nightly gates, history and trend";
  }

  @Override
  public List<String> written(Path folder, List<RequestStats> requests, RunAnalysis analysis,
                             boolean interrupted) throws IOException {
    List<Tonight> tonight = levels(requests, analysis);
    List<History.Night> past = History.read(history);
    List<Gate> gates = new ArrayList<>();
    for (Tonight level : tonight) {
      gates.addAll(gates(level, past));
    }
    if (interrupted || tonight.size() < frameworks.size() * levels.size() * modes.size()) {
      gates.add(new Gate(Tonight.RUN, "complete", false,
          "the run ended before every framework and level had run"));
    }
    long failed = gates.stream().filter(g -> !g.passed()).count();
    Files.writeString(folder.resolve(JUNIT), JUnitXml.render("rpc-nightly", gates), StandardCharsets.UTF_8);
    Files.writeString(folder.resolve(SUMMARY), markdown(tonight, gates, past.isEmpty()), StandardCharsets.UTF_8);
    String date = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString();
    History.Night night = History.night(date, commit(), RunContext.machine(), folder.toAbsolutePath().toString(),
        failed > 0, tonight);
    List<History.Night> all = new ArrayList<>(past);
    if (interrupted) {
      // Its levels may be cut short: not a night to compare later ones with.
      System.out.println("Nightly history: the run was interrupted, so it is not recorded in " + history);
    } else {
      History.append(history, night);
      all.add(night);
    }
    String page = TrendPage.render(all, frameworks, levels, modes);
    Files.writeString(folder.resolve(TREND), page, StandardCharsets.UTF_8);
    Path besideHistory = history.toAbsolutePath().resolveSibling(TREND);
    Files.writeString(besideHistory, page, StandardCharsets.UTF_8);

    System.out.println("Nightly gates: " + (gates.size() - failed) + " passed, " + failed + " failed ("
        + folder.resolve(JUNIT).toAbsolutePath() + ")");
    for (Gate g : gates) {
      if (!g.passed()) {
        System.out.println("GATE FAILED " + g.level().key() + " " + g.name() + ": " + g.message());
      }
    }
    if (past.isEmpty()) {
      System.out.println("Nightly history " + history.toAbsolutePath()
          + ": no earlier night to compare with; this run is the first record");
    }
    System.out.println("Trend: " + besideHistory.toUri());
    return failed > 0 ? List.of(failed + " nightly gate(s) failed (see GATE FAILED above and " + JUNIT + ")")
        : List.of();
  }

  static String markdown(List<Tonight> tonight, List<Gate> gates, boolean firstNight) {
    long failed = gates.stream().filter(g -> !g.passed()).count();
    StringBuilder m = new StringBuilder("## RPC nightly: ")
        .append(failed == 0 ? "all " + gates.size() + " gates passed" : failed + " of " + gates.size() + " gates failed")
        .append("\n\n");
    if (firstNight) {
      m.append("First night of this history: nothing to compare with yet.\n\n");
    }
    m.append("| framework | clients | mode | calls/s | p50 µs | p99 µs | KO | gates |\n|---|---:|---|---:|---:|---:|---:|---|\n");
    for (Tonight l : tonight) {
      List<String> bad = gates.stream().filter(g -> g.level() == l && !g.passed())
          .map(g -> g.name() + ": " + g.message()).toList();
      m.append(String.format("| %s | %d | %s | %,.0f | %d | %d | %d | %s |%n", l.framework(), l.level().size(),
          l.level().mode().label(),
          l.callsPerSecond(), l.p50(), l.p99(), l.ko(), bad.isEmpty() ? "passed" : "**" + String.join("; ", bad)
              .replace("|", "/") + "**"));
    }
    gates.stream().filter(g -> g.level().framework().equals("run") && !g.passed())
        .forEach(g -> m.append("\n**").append(g.message()).append("**\n"));
    return m.toString();
  }

  /**
   * Each framework, mode and level tonight. Measured over trials ({@code -Drepeat}), a level's figures
   * are the medians of its trials' and its noise their spread: {@code windows} is then the number of
   * trials and {@code spread} the trials' calls/s standard deviation over their mean.
   */
  List<Tonight> levels(List<RequestStats> requests, RunAnalysis analysis) {
    List<Tonight> out = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        for (int clients : levels) {
          Level level = Level.closed(framework, clients, mode);
          List<RequestStats> ts = requests.stream().filter(r -> r.level() != null
              && r.level().overTrials().equals(level)).sorted(java.util.Comparator.comparingInt(r -> r.level().trial()))
              .toList();
          if (ts.isEmpty()) {
            continue;
          }
          java.util.Set<String> names = ts.stream().map(RequestStats::name)
              .collect(java.util.stream.Collectors.toSet());
          List<String> warnings = analysis.warnings().stream().filter(w -> names.contains(w.request()))
              .map(w -> w.kind() + ": " + w.message()).toList();
          long ko = ts.stream().mapToLong(RequestStats::ko).sum();
          long count = ts.stream().mapToLong(RequestStats::count).sum();
          if (ts.size() == 1) {
            RequestStats s = ts.get(0);
            long[] full = RunAnalysis.fullWindows(s);
            long[] p99s = java.util.Arrays.stream(s.p99Windows(), 0, Math.min(full.length, s.p99Windows().length))
                .filter(v -> v > 0).toArray();
            out.add(new Tonight(level, s.okThroughput(), s.p50(), s.p99(), ko, count, warnings, full.length,
                RunAnalysis.steadiness(full)[0], RunAnalysis.steadiness(p99s)[0]));
          } else {
            double[] calls = ts.stream().mapToDouble(RequestStats::okThroughput).toArray();
            double[] p99s = ts.stream().filter(RequestStats::hasOkCalls).mapToDouble(RequestStats::p99).toArray();
            double[] p50s = ts.stream().filter(RequestStats::hasOkCalls).mapToDouble(RequestStats::p50).toArray();
            out.add(new Tonight(level, TrialStats.medianOf(calls),
                p50s.length == 0 ? 0 : Math.round(TrialStats.medianOf(p50s)),
                p99s.length == 0 ? 0 : Math.round(TrialStats.medianOf(p99s)), ko, count, warnings, ts.size(),
                relativeSpread(calls), relativeSpread(p99s)));
          }
        }
      }
    }
    return out;
  }

  /** Standard deviation over mean; 0 for fewer than 2 values. */
  static double relativeSpread(double[] xs) {
    if (xs.length < 2) {
      return 0;
    }
    double mean = java.util.Arrays.stream(xs).average().orElse(0);
    double ss = java.util.Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum();
    return mean <= 0 ? 0 : Math.sqrt(ss / (xs.length - 1)) / mean;
  }

  List<Gate> gates(Tonight level, List<History.Night> past) {
    List<Gate> out = new ArrayList<>();
    out.add(new Gate(level, "ko", level.ko() == 0, level.ko() + " KO of " + level.count() + " calls"));
    JsonNode limit = limits.path(level.framework()).path(Integer.toString(level.level().size()));
    if (limit.has("maxP99Us")) {
      long max = limit.get("maxP99Us").asLong();
      boolean anyOk = level.count() > level.ko();
      out.add(new Gate(level, "limit p99", anyOk && level.p99() <= max, anyOk
          ? "p99 " + level.p99() + " µs, limit " + max + " µs" : "no OK call, so no p99, limit " + max + " µs"));
    }
    if (limit.has("minCallsPerSecond")) {
      double min = limit.get("minCallsPerSecond").asDouble();
      out.add(new Gate(level, "limit calls/s", level.callsPerSecond() >= min, String.format(
          "%,.0f calls/s, limit %,.0f", level.callsPerSecond(), min)));
    }
    List<History.NightLevel> before = History.comparable(past, level.level(), nights);
    // A level its run says not to trust is judged too, at twice the floor (Regression.Rule#forWarnedLevel):
    // a busy machine can explain a small change, not a collapse. The validity gate reports the warnings.
    boolean warned = !level.warnings().isEmpty();
    String because = !warned ? "" : "; judged at twice the floor: tonight's level has validity warnings ("
        + String.join("; ", level.warnings().stream().map(w -> w.substring(0, w.indexOf(':'))).toList()) + ")";
    Regression.Rule calls = new Regression.Rule(nights, throughputFloor, minNights, Better.HIGHER);
    Regression.Verdict t = Regression.judge("calls/s", level.callsPerSecond(),
        History.values(before, History.NightLevel::callsPerSecond), Regression.noise(level.spread(), level.windows(),
            History.median(before, History.NightLevel::spread, level.spread()),
            (int) History.median(before, History.NightLevel::windows, level.windows())),
        warned ? calls.forWarnedLevel() : calls);
    out.add(new Gate(level, "regression calls/s", t.passed(), t.message() + because));
    Regression.Rule p99 = new Regression.Rule(nights, p99Floor, minNights, Better.LOWER);
    Regression.Verdict p = Regression.judge("p99 µs", level.p99(), History.values(before, History.NightLevel::p99),
        Regression.noise(level.p99Spread(), level.windows(), History.median(before, History.NightLevel::p99Spread, level.p99Spread()),
            (int) History.median(before, History.NightLevel::windows, level.windows())),
        warned ? p99.forWarnedLevel() : p99);
    out.add(new Gate(level, "regression p99", p.passed(), p.message() + because));
    out.add(new Gate(level, "validity", !failOnWarnings || level.warnings().isEmpty(),
        level.warnings().isEmpty() ? "no warnings" : String.join("; ", level.warnings())
            + (failOnWarnings ? "" : " (reported; -DfailOnWarnings=true fails on them)")));
    return out;
  }

  /** GITHUB_SHA on GitHub Actions, else the checkout's HEAD, else "unknown". */
  static String commit() {
    String sha = System.getenv("GITHUB_SHA");
    if (sha != null && !sha.isBlank()) {
      return sha.substring(0, Math.min(12, sha.length()));
    }
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").redirectErrorStream(true).start();
      if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      }
      p.destroyForcibly();
    } catch (IOException e) {
      // no git
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "unknown";
  }
}
