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
import protocols.stats.RequestStats;
import protocols.rpc.InvocationMode;
import protocols.report.Comparison;
import protocols.report.TwoWays;
import protocols.stats.Level;
import protocols.load.RunAnalysis;

/** Two ways of one framework (direct/registry, plaintext/TLS) compared level by level, as the comparison reports them. */
class TwoWaysComparisonTest {
  @Test
  void aFrameworkRunDirectAndThroughItsRegistryIsComparedLevelByLevel(@TempDir Path dir) throws Exception {
    TwoWays pair = new TwoWays(TwoWays.Contrast.DISCOVERY, "dubbo", "dubbo via zookeeper", "zookeeper", 900, 1_400);
    ComparisonReport report = new ComparisonReport(List.of("dubbo", "dubbo via zookeeper", "netty"), Map.of(),
        List.of(InvocationMode.ASYNC), List.of(1, 5), "netty", Map.of(), Map.of(), List.of(pair));
    List<RequestStats> all = List.of(ComparisonReportTest.stats(Level.closed("dubbo", 1, InvocationMode.ASYNC), 1000, 1000),
        ComparisonReportTest.stats(Level.closed("dubbo", 5, InvocationMode.ASYNC), 4000, 4000),
        ComparisonReportTest.stats(Level.closed("dubbo via zookeeper", 1, InvocationMode.ASYNC), 900, 900),
        ComparisonReportTest.stats(Level.closed("dubbo via zookeeper", 5, InvocationMode.ASYNC), 3000, 3000),
        ComparisonReportTest.stats(Level.closed("netty", 1, InvocationMode.ASYNC), 5000, 5000));
    List<TwoWays.Row> rows = TwoWays.rows(List.of(pair), report.rows(all), List.of());
    assertEquals(List.of(1, 5), rows.stream().map(TwoWays.Row::clients).toList());
    assertEquals(0.9, rows.get(0).variantVsBaseline(), 0.01);
    assertEquals(0.75, rows.get(1).variantVsBaseline(), 0.01);

    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("id=\"discovery\"") && html.contains("data-discovery=\"dubbo\" data-mode=\"async\""
        + " data-clients=\"5\""), "the discovery table");
    assertTrue(html.contains("dubbo direct 900 ms, through zookeeper 1400 ms"), "the first calls");
    String json = Files.readString(dir.resolve(ComparisonReport.JSON));
    assertTrue(json.contains("\"contrast\" : \"discovery\"") && json.contains("\"variantVsBaseline\" : 0.75")
        && json.contains("\"variantFirstCallMillis\" : 1400"), json);
    assertFalse(html.contains("id=\"tls\""), "no TLS table without a TLS pair");
  }

  @Test
  void aFrameworkRunInPlaintextAndOverTlsIsComparedLevelByLevel(@TempDir Path dir) throws Exception {
    TwoWays pair = new TwoWays(TwoWays.Contrast.TLS, "grpc", "grpc tls", "tls", 120, 180);
    ComparisonReport report = new ComparisonReport(List.of("grpc", "grpc tls", "netty", "netty tls"), Map.of(),
        List.of(InvocationMode.ASYNC), List.of(1, 5), "netty", Map.of(), Map.of(), List.of(pair),
        Map.of("grpc tls", "netty tls"), 0);
    List<RequestStats> all = List.of(ComparisonReportTest.stats(Level.closed("grpc", 1, InvocationMode.ASYNC), 1000, 1000),
        ComparisonReportTest.stats(Level.closed("grpc", 5, InvocationMode.ASYNC), 4000, 4000),
        ComparisonReportTest.stats(Level.closed("grpc tls", 1, InvocationMode.ASYNC), 800, 800),
        ComparisonReportTest.stats(Level.closed("grpc tls", 5, InvocationMode.ASYNC), 2000, 2000),
        ComparisonReportTest.stats(Level.closed("netty", 1, InvocationMode.ASYNC), 5000, 5000),
        ComparisonReportTest.stats(Level.closed("netty tls", 1, InvocationMode.ASYNC), 4000, 4000));
    List<Comparison.Row> all2 = report.rows(all);
    assertEquals(0.2, all2.get(0).ceilingRatio(), 0.01, "plaintext against the plaintext ceiling");
    assertEquals(0.2, all2.get(2).ceilingRatio(), 0.01, "TLS against the ceiling over TLS");
    List<TwoWays.Row> rows = TwoWays.rows(List.of(pair), all2, List.of());
    assertEquals(List.of(1, 5), rows.stream().map(TwoWays.Row::clients).toList());
    assertEquals(0.8, rows.get(0).variantVsBaseline(), 0.01);
    assertEquals(0.5, rows.get(1).variantVsBaseline(), 0.01);
    assertNull(rows.get(0).variantServerCpuPerCall(), "no CPU figure where none was sampled");
    String console = TwoWays.table(TwoWays.Contrast.TLS, List.of(pair), rows);
    assertTrue(console.contains("Plaintext against TLS") && console.contains("tls/pl")
        && console.contains("first OK call of a fresh grpc client: plaintext 120 ms, tls 180 ms"), console);
    assertTrue(console.lines().anyMatch(l -> l.startsWith("grpc ") && l.contains(" 0.50 ")), console);
    assertEquals("", TwoWays.table(TwoWays.Contrast.DISCOVERY, List.of(pair), rows), "no table without its pairs");

    report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("id=\"tls\"") && html.contains("data-tls=\"grpc\" data-mode=\"async\" data-clients=\"5\""),
        "the TLS table");
    assertTrue(html.contains("grpc plaintext 120 ms, tls 180 ms"), "the first calls");
    String json = Files.readString(dir.resolve(ComparisonReport.JSON));
    assertTrue(json.contains("\"contrast\" : \"tls\"") && json.contains("\"variantVsBaseline\" : 0.5")
        && json.contains("\"variantFirstCallMillis\" : 180"), json);
    assertFalse(html.contains("id=\"discovery\""), "no discovery table without a discovery pair");
  }

  /**
   * grpc and grpc tls at 1 client, one trial each per round of 3 s: plaintext at {@code plaintext[r]}
   * calls/s, TLS at {@code tlsShare[r]} of it.
   */
  private static List<RequestStats> tlsRounds(double[] plaintext, double[] tlsShare) {
    List<RequestStats> all = new java.util.ArrayList<>();
    for (int t = 1; t <= plaintext.length; t++) {
      double tls = plaintext[t - 1] * tlsShare[t - 1];
      all.add(ComparisonReportTest.stats(Level.closed("grpc", 1, InvocationMode.ASYNC).trial(t), (long) plaintext[t - 1] * 3,
          plaintext[t - 1]));
      all.add(ComparisonReportTest.stats(Level.closed("grpc tls", 1, InvocationMode.ASYNC).trial(t), (long) (tls * 3), tls));
    }
    return all;
  }

  /** A TLS pair of gRPC over three rounds, TLS at {@code factors} of plaintext's calls/s, and the report on it. */
  private record TlsPair(TwoWays pair, ComparisonReport report, List<RequestStats> all, List<Comparison.Pair> pairs) {
    TwoWays.Row row() throws java.io.IOException {
      return TwoWays.rows(List.of(pair), report.rows(all), pairs).get(0);
    }

    String table(TwoWays.Row row) {
      return TwoWays.table(TwoWays.Contrast.TLS, List.of(pair), List.of(row));
    }

    void write(Path dir) throws java.io.IOException {
      report.written(dir, all, RunAnalysis.of(all, Optional.empty(), List.of()), false);
    }
  }

  private static TlsPair tlsPair(List<String> variants, double[] factors) {
    TwoWays pair = new TwoWays(TwoWays.Contrast.TLS, "grpc", "grpc tls", "tls", 120, 180);
    ComparisonReport report = new ComparisonReport(variants, Map.of(), List.of(InvocationMode.ASYNC), List.of(1),
        "netty", Map.of(), Map.of(), List.of(pair), Map.of(), 11);
    List<RequestStats> all = tlsRounds(new double[] {1000, 1100, 900}, factors);
    return new TlsPair(pair, report, all, new TrialComparison(all, 11).pairs(variants, List.of(InvocationMode.ASYNC),
        List.of(1)));
  }

  /**
   * TLS run first ({@code -Dtls=true,false}) in three rounds at half plaintext's calls/s: the TLS row's
   * interval and verdict are its pair's, turned round to read TLS over plaintext, on the console, the
   * page and in comparison.json.
   */
  @Test
  void aTwoWaysRowCarriesItsPairsIntervalAndVerdictReadAsVariantOverBaseline(@TempDir Path dir) throws Exception {
    TlsPair t = tlsPair(List.of("grpc tls", "grpc"), new double[] {0.5, 0.5, 0.5});
    assertEquals("grpc tls", t.pairs().get(0).baseline(), "TLS ran first: the pair's baseline");
    TwoWays.Row row = t.row();
    assertEquals(protocols.stats.Verdict.FASTER, t.pairs().get(0).throughputVerdict(), "plaintext over TLS");
    assertEquals(0.5, row.variantVsBaselineInterval().mid(), 0.02, "TLS over plaintext, not the pair's 2");
    assertTrue(row.variantVsBaselineInterval().hi() < 1, row.variantVsBaselineInterval().toString());
    assertEquals(protocols.stats.Verdict.SLOWER, row.verdict(), "TLS, read as the variant");
    assertTrue(t.table(row).lines().anyMatch(l -> l.startsWith("grpc ") && l.contains("[0.") && l.contains("slower")));

    t.write(dir);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    java.util.regex.Matcher cell = java.util.regex.Pattern.compile("data-tls=\"grpc\".*?<td class=\"interval\">"
        + "\\[([0-9.]+), ([0-9.]+)\\]</td><td class=\"verdict t\">([^<]+)</td>").matcher(html);
    assertTrue(cell.find(), "the TLS row's interval and verdict on the page");
    assertTrue(Double.parseDouble(cell.group(2)) < 1 && Double.parseDouble(cell.group(1)) > 0.4, cell.group());
    assertEquals("slower", cell.group(3));
    String json = Files.readString(dir.resolve(ComparisonReport.JSON));
    assertTrue(json.contains("\"variantVsBaselineInterval\"") && json.contains("\"verdict\" : \"slower\""),
        json);
  }

  /**
   * TLS at 0.5, 0.9 and 0.6 of plaintext in three rounds: the medians' ratio (540 / 1000) is not the pair's
   * (the rounds' geometric mean, 0.65); the row, its console line and its page cell give the pair's, the
   * centre of the interval beside it.
   */
  @Test
  void aTwoWaysRowsRatioIsItsPairsNotTheMediansRatio(@TempDir Path dir) throws Exception {
    TlsPair t = tlsPair(List.of("grpc", "grpc tls"), new double[] {0.5, 0.9, 0.6});
    TwoWays.Row row = t.row();
    assertEquals(0.54, row.variantThroughput() / row.baselineThroughput(), 0.01, "the medians' ratio");
    assertEquals(Math.cbrt(0.5 * 0.9 * 0.6), row.variantVsBaseline(), 0.01, "the pair's ratio");
    assertEquals(row.variantVsBaselineInterval().mid(), row.variantVsBaseline(), 1e-9);
    assertTrue(t.table(row).lines().anyMatch(l -> l.startsWith("grpc ") && l.contains(" 0.65 ")));
    t.write(dir);
    assertTrue(Files.readString(dir.resolve(ComparisonReport.HTML)).matches("(?s).*data-tls=\"grpc\".*?"
        + "<td class=\"ratio\">0\\.65</td>.*"), "the page's ratio cell");
  }
}
