package protocols.shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.stats.LatencyRecorder;
import protocols.stats.RequestStats;
import protocols.rpc.InvocationMode;
import protocols.report.Comparison;
import protocols.stats.Level;
import protocols.stats.RunInfo;
import protocols.stats.Summaries;
import protocols.load.RunAnalysis;

class ComparisonReportTest {

  /** {@code count} calls of 100 µs, started evenly at {@code throughput} calls/s, as {@code level}. */
  static RequestStats stats(Level level, long count, double throughput) {
    LatencyRecorder r = new LatencyRecorder();
    r.describe(level.name(), level);
    long gap = (long) (1e9 / throughput);
    for (long i = 0; i < count; i++) {
      r.record(level.name(), i * gap, i * gap + gap, true);
    }
    return r.snapshot().get(0);
  }

  /** A plain driver's summary of what {@code recorder} recorded, its levels named as the plain driver names them. */
  private static void writePlain(Path file, LatencyRecorder recorder) throws java.io.IOException {
    for (int clients : List.of(1, 5)) {
      Level level = Level.closed(null, clients, InvocationMode.ASYNC);
      recorder.describe(level.name(), level);
    }
    Summaries.write(file, new Summaries.Summary(RunInfo.ofPlainDriver("dubbo", "async", "127.0.0.1:1", true, null,
        Map.of(), List.of()), List.of(), recorder.snapshot(), Map.of()));
  }

  @Test
  void ratiosToTheCeilingAndThePlainDriver(@TempDir Path dir) throws Exception {
    Path plainDir = Files.createDirectory(dir.resolve("plain-driver-tmp")); // as the shootout's temporary folder
    Path plain = plainDir.resolve("plain-dubbo-async.json");
    Files.writeString(plainDir.resolve("dubbo-async.log"), "the plain driver's console");
    LatencyRecorder plainRecorder = new LatencyRecorder();
    // 1000 calls over one second: 1000 calls/s.
    for (int i = 0; i < 1000; i++) {
      plainRecorder.record("echo 1 clients (async)", i * 1_000_000L, i * 1_000_000L + 1_000_000L, true);
    }
    writePlain(plain, plainRecorder);
    ComparisonReport report = new ComparisonReport(List.of("dubbo", "netty"), Map.of(), List.of(InvocationMode.ASYNC), List.of(1),
        "netty", Map.of("levels", "[1]"), Map.of("dubbo async", plain), List.of());
    List<RequestStats> all = List.of(stats(Level.closed("dubbo", 1, InvocationMode.ASYNC), 4000, 800),
        stats(Level.closed("netty", 1, InvocationMode.ASYNC), 20000, 4000));
    List<Comparison.Row> rows = report.rows(all);
    assertEquals(2, rows.size());
    Comparison.Row dubbo = rows.get(0);
    assertEquals(0.2, dubbo.ceilingRatio(), 0.001);
    assertEquals(1000, dubbo.plainThroughput(), 1);
    assertEquals(0.8, dubbo.gatlingVsPlain(), 0.01);
    assertEquals(4000, dubbo.callsPerClient());
    assertNull(rows.get(1).plainThroughput());

    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("data-series=\"dubbo\"") && html.contains("id=\"p99-chart\""));
    assertTrue(html.contains("id=\"no-warnings\""), "a clean run says it has no warnings");
    assertEquals(3, Files.readAllLines(dir.resolve(ComparisonReport.CSV)).size());
    assertTrue(Files.exists(dir.resolve("plain-dubbo-async.json")) && Files.exists(dir.resolve("dubbo-async.log")),
        "the plain driver's results and log move into the run's folder");
    assertTrue(Files.notExists(plainDir), "and its temporary folder goes");
  }

  /** A framework that fails fast must not rank higher: every figure of the comparison counts OK calls only. */
  @Test
  void failedCallsAreNotCountedAsServed(@TempDir Path dir) throws Exception {
    LatencyRecorder r = new LatencyRecorder();
    Level dubbo = Level.closed("dubbo", 1, InvocationMode.ASYNC);
    r.describe(dubbo.name(), dubbo);
    for (long i = 0; i < 4000; i++) { // 1,000 OK and 3,000 KO over one second
      r.record(dubbo.name(), i * 250_000L, i * 250_000L + 250_000L, i % 4 == 0);
    }
    ComparisonReport report = new ComparisonReport(List.of("dubbo", "netty"), Map.of(), List.of(InvocationMode.ASYNC),
        List.of(1), "netty", Map.of(), Map.of(), List.of());
    List<RequestStats> all = List.of(r.snapshot().get(0), stats(Level.closed("netty", 1, InvocationMode.ASYNC), 2000, 2000));
    List<Comparison.Row> rows = report.rows(all, name -> name.equals(dubbo.name()) ? new protocols.stats.CpuSampler.Shares(
        0.25, 0.25, 0, 0, 0.5, 1, 2) : null);
    Comparison.Row row = rows.get(0);
    assertEquals(1000, row.throughput(), 5, "OK calls/s, not all 4,000 calls/s");
    assertEquals(3000, row.ko());
    assertEquals(0.5, row.ceilingRatio(), 0.01);
    assertEquals(500, row.gatlingCpuPerCall(), 5, "0.5 cores over 1,000 OK calls/s");
  }

  /** Calls at {@code perSecond[i]} calls/s in second i, 1 ms each: a level whose seconds differ a little. */
  private static void seconds(LatencyRecorder r, String name, int... perSecond) {
    for (int s = 0; s < perSecond.length; s++) {
      long gap = 1_000_000_000L / perSecond[s];
      for (int i = 0; i < perSecond[s]; i++) {
        long t = s * 1_000_000_000L + i * gap;
        r.record(name, t, t + 1_000_000L, true);
      }
    }
  }

  /** Gatling / plain gets a 95% interval from the two levels' seconds (each measured once), on the page and the console. */
  @Test
  void gatlingOverThePlainDriverHasAnIntervalFromBothLevelsSeconds(@TempDir Path dir) throws Exception {
    Path plain = dir.resolve("plain-dubbo-async.json");
    LatencyRecorder plainRecorder = new LatencyRecorder();
    seconds(plainRecorder, "echo 5 clients (async)", 5000, 5200, 4800, 5100, 4900);
    writePlain(plain, plainRecorder);
    ComparisonReport report = new ComparisonReport(List.of("dubbo"), Map.of(), List.of(InvocationMode.ASYNC),
        List.of(5), "netty", Map.of(), Map.of("dubbo async", plain), List.of())
        .withLayouts(Map.of("dubbo async", new Comparison.ClientLayout("one per provider", 3)));
    Level level = Level.closed("dubbo", 5, InvocationMode.ASYNC);
    LatencyRecorder gatling = new LatencyRecorder();
    gatling.describe(level.name(), level);
    seconds(gatling, level.name(), 4000, 4100, 3900, 4050, 3950);
    List<RequestStats> all = gatling.snapshot();
    Comparison.Row row = report.rows(all).get(0);
    assertEquals(0.8, row.gatlingVsPlain(), 0.02);
    protocols.stats.Interval i = row.gatlingVsPlainInterval();
    assertTrue(i != null && i.lo() < 0.8 && i.hi() > 0.8 && i.hi() < 0.9, String.valueOf(i));
    assertTrue(Comparison.efficiencyTable(List.of(row)).contains(String.format(java.util.Locale.ROOT, "[%.2f, %.2f]",
        i.lo(), i.hi())), Comparison.efficiencyTable(List.of(row)));
    assertEquals(1.0, row.p50VsPlain().mid(), 0.02, "every call took 1 ms on both sides: p50 alike");
    assertTrue(Comparison.csv(List.of(row)).lines().skip(1).findFirst().orElseThrow().endsWith(
        String.format(java.util.Locale.ROOT, "%.3f,%.3f,%.3f,one per provider,3", row.p50VsPlain().mid(),
            row.p50VsPlain().lo(), row.p50VsPlain().hi())), Comparison.csv(List.of(row)));
    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    assertTrue(Files.readString(dir.resolve(ComparisonReport.HTML)).contains(String.format(java.util.Locale.ROOT,
        "[%.2f, %.2f]</small>", i.lo(), i.hi())), "the interval under Gatling / plain on the page");
    assertTrue(Files.readString(dir.resolve(ComparisonReport.HTML)).contains(
        "<td class=\"t connections\">one per provider</td><td class=\"hops\">3</td>"), "the row's client layout");
  }

  /**
   * -Dplain=true -Drepeat=3: Gatling's three trials over the plain driver's three (measured apart): the
   * ratio of their geometric means with Welch's interval, the plain figure the median trial's.
   */
  @Test
  void gatlingOverThePlainDriverOverTrialsIsUnpaired(@TempDir Path dir) throws Exception {
    Path plain = dir.resolve("plain-dubbo-async.json");
    LatencyRecorder plainRecorder = new LatencyRecorder();
    double[] plainTrials = {5000, 5200, 4800};
    double[] gatlingTrials = {4000, 4300, 3900};
    List<RequestStats> all = new java.util.ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      Level p = Level.closed(null, 5, InvocationMode.ASYNC).trial(t);
      plainRecorder.describe(p.name(), p);
      seconds(plainRecorder, p.name(), (int) plainTrials[t - 1], (int) plainTrials[t - 1]);
      all.add(stats(Level.closed("dubbo", 5, InvocationMode.ASYNC).trial(t), (long) gatlingTrials[t - 1] * 2,
          gatlingTrials[t - 1]));
    }
    Summaries.write(plain, new Summaries.Summary(RunInfo.ofPlainDriver("dubbo", "async", "127.0.0.1:1", true, null,
        Map.of(), List.of()), List.of(), plainRecorder.snapshot(), Map.of()));
    ComparisonReport report = new ComparisonReport(List.of("dubbo"), Map.of(), List.of(InvocationMode.ASYNC),
        List.of(5), "netty", Map.of(), Map.of("dubbo async", plain), List.of(), Map.of(), 11);
    Comparison.Row row = report.rows(all).get(0);
    assertEquals(5000, row.plainThroughput(), 20, "the median of the plain driver's trials");
    protocols.stats.Interval i = row.gatlingVsPlainInterval();
    double expected = Math.cbrt(4000 * 4300 * 3900.0) / Math.cbrt(5000 * 5200 * 4800.0);
    assertEquals(expected, row.gatlingVsPlain(), 0.01, "the interval's centre");
    assertEquals(i.mid(), row.gatlingVsPlain(), 1e-9);
    assertTrue(i.lo() < expected && i.hi() > expected && i.hi() < 1, i.toString());
    assertTrue(i.method().contains("3 and 3 trials measured apart"), i.method());
  }

  @Test
  void aPlainDriverThatMeasuredNothingIsFlaggedNotDividedBy(@TempDir Path dir) throws Exception {
    // As seen on a busy machine: the plain driver made 2 calls at 1 client, so Gatling / plain read 185.99.
    Path plain = dir.resolve("plain-dubbo-async.json");
    LatencyRecorder plainRecorder = new LatencyRecorder();
    plainRecorder.record("echo 1 clients (async)", 0, 1_000_000_000L, true);
    plainRecorder.record("echo 5 clients (async)", 0, 1_000_000L, true);
    for (int i = 0; i < 5000; i++) {
      plainRecorder.record("echo 5 clients (async)", i * 200_000L, i * 200_000L + 100_000L, true);
    }
    writePlain(plain, plainRecorder);
    ComparisonReport report = new ComparisonReport(List.of("dubbo"), Map.of(), List.of(InvocationMode.ASYNC), List.of(1, 5),
        "netty", Map.of(), Map.of("dubbo async", plain), List.of());
    List<RequestStats> all = List.of(stats(Level.closed("dubbo", 1, InvocationMode.ASYNC), 186, 186),
        stats(Level.closed("dubbo", 5, InvocationMode.ASYNC), 4000, 4000));
    List<Comparison.Row> rows = report.rows(all);
    assertNull(rows.get(0).gatlingVsPlain(), "no ratio from a plain figure of one call");
    assertTrue(rows.get(0).plainFlag().contains("no baseline"), rows.get(0).plainFlag());
    assertNull(rows.get(1).plainFlag());
    assertEquals(0.8, rows.get(1).gatlingVsPlain(), 0.01);

    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("data-kind=\"plain-driver\""), "the flag is a warning at the top");
    assertTrue(Files.readString(dir.resolve(ComparisonReport.JSON)).contains("\"kind\" : \"plain-driver\""));
  }

  /** -Dpayload: a chart per level of calls/s and one of p99 against size, one line per framework over its sizes. */
  @Test
  void payloadSizesGetChartsOfCallsPerSecondAndP99AgainstSize(@TempDir Path dir) throws Exception {
    List<String> variants = List.of("grpc 1 KiB", "grpc 16 KiB", "netty 1 KiB", "netty 16 KiB");
    ComparisonReport report = new ComparisonReport(variants, Map.of(), List.of(InvocationMode.ASYNC), List.of(1),
        "netty", Map.of(), Map.of(), List.of(), Map.of(), 11).withPayloads(List.of(
            new Comparison.PayloadPoint("grpc 1 KiB", "grpc", 1024, "1 KiB"),
            new Comparison.PayloadPoint("grpc 16 KiB", "grpc", 16384, "16 KiB"),
            new Comparison.PayloadPoint("netty 1 KiB", "netty", 1024, "1 KiB"),
            new Comparison.PayloadPoint("netty 16 KiB", "netty", 16384, "16 KiB")));
    List<RequestStats> all = new java.util.ArrayList<>();
    double[] rates = {2000, 1000, 4000, 3000};
    for (int i = 0; i < variants.size(); i++) {
      all.add(stats(Level.closed(variants.get(i), 1, InvocationMode.ASYNC), (long) rates[i] * 3, rates[i]));
    }
    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("id=\"payload-throughput-1\"") && html.contains("id=\"payload-p99-1\""), "two charts");
    String chart = html.substring(html.indexOf("id=\"payload-throughput-1\""));
    chart = chart.substring(0, chart.indexOf("</svg>"));
    assertTrue(chart.contains("payload (bytes of the order&#39;s name)") || chart.contains("payload (bytes of the"
        + " order's name)"), chart);
    assertTrue(chart.contains(">grpc<") && chart.contains(">netty<"), "a line per framework, not per variant: " + chart);
    assertFalse(chart.contains("grpc 1 KiB"), chart);
  }

  /**
   * Three rounds of two variants, the second at half the first's calls/s in every round: its rows carry
   * medians with intervals over trials, and the pair reads slower with an interval that excludes 1.
   */
  @Test
  void repeatedTrialsGiveMediansWithIntervalsAndEachPairARatioWithAVerdict(@TempDir Path dir) throws Exception {
    ComparisonReport report = new ComparisonReport(List.of("grpc", "grpc +400us"), Map.of(),
        List.of(InvocationMode.ASYNC), List.of(1), "netty", Map.of(), Map.of(), List.of(), Map.of(), 11);
    List<RequestStats> all = new java.util.ArrayList<>();
    double[] rounds = {1000, 1100, 900};
    for (int t = 1; t <= 3; t++) {
      all.add(stats(Level.closed("grpc", 1, InvocationMode.ASYNC).trial(t), (long) rounds[t - 1] * 3, rounds[t - 1]));
      all.add(stats(Level.closed("grpc +400us", 1, InvocationMode.ASYNC).trial(t), (long) rounds[t - 1] * 3 / 2,
          rounds[t - 1] / 2));
    }
    List<Comparison.Row> rows = report.rows(all);
    assertEquals(2, rows.size(), "one row per variant and level, over its trials");
    Comparison.Row fast = rows.get(0);
    assertEquals(3, fast.spread().trials());
    assertEquals(1000, fast.throughput(), 20, "the median trial's calls/s");
    assertTrue(fast.spread().throughput().lo() <= 1000 && fast.spread().throughput().hi() >= 1000);
    assertEquals(9000, fast.totalCalls(), "every trial's calls");
    assertEquals("grpc echo 1 clients (async) trial 1", fast.spread().medianTrial());

    TrialComparison trials = new TrialComparison(all, 11);
    Comparison.Pair pair = trials.pairs(List.of("grpc", "grpc +400us"), List.of(InvocationMode.ASYNC), List.of(1))
        .get(0);
    assertEquals("grpc", pair.baseline());
    assertEquals(0.5, pair.throughputRatio().mid(), 0.02);
    assertTrue(pair.throughputRatio().hi() < 1, pair.toString());
    assertEquals(protocols.stats.Verdict.SLOWER, pair.throughputVerdict());
    assertEquals(protocols.stats.Verdict.SLOWER, pair.p99Verdict(), "twice the latency");
    assertEquals(1, trials.resolutions(List.of("grpc", "grpc +400us"), List.of(InvocationMode.ASYNC), List.of(1))
        .size());
    assertTrue(Comparison.pairsTable(List.of(pair)).contains("slower"), Comparison.pairsTable(List.of(pair)));

    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("class=\"error-bar\"") && html.contains("id=\"pairs\"")
        && html.contains("id=\"resolution\""), "error bars, the pairs and the resolution on the page");
    List<String> csv = Files.readAllLines(dir.resolve(ComparisonReport.CSV));
    assertTrue(csv.get(0).contains(",trials,ok_throughput_low,ok_throughput_high,p99_us_low,p99_us_high,"), csv.get(0));
    List<String> columns = List.of(csv.get(0).split(","));
    String[] fastRow = csv.get(1).split(",", -1);
    assertEquals(columns.size(), fastRow.length, csv.get(1));
    assertEquals("3", fastRow[columns.indexOf("trials")]);
    assertTrue(Double.parseDouble(fastRow[columns.indexOf("ok_throughput_low")]) <= fast.throughput()
        && Double.parseDouble(fastRow[columns.indexOf("ok_throughput_high")]) >= fast.throughput(), csv.get(1));
  }
}
