package protocols.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonReportTest {

  private static LatencyRecorder.RequestStats stats(String name, long count, double throughput) {
    return new LatencyRecorder.RequestStats(name, count, 0, count / throughput, throughput, 100, 90, 150, 300, 900, 2000);
  }

  @Test
  void ratiosToTheCeilingAndThePlainDriver(@TempDir Path dir) throws Exception {
    Path plain = dir.resolve("plain-dubbo-async.json");
    LatencyRecorder plainRecorder = new LatencyRecorder();
    // 1000 calls over one second: 1000 calls/s.
    for (int i = 0; i < 1000; i++) {
      plainRecorder.record("echo 1 clients (async)", i * 1_000_000L, i * 1_000_000L + 1_000_000L, true);
    }
    plainRecorder.writeSummaryTo(plain, Map.of());
    ComparisonReport report = new ComparisonReport(List.of("dubbo", "netty"), List.of(InvocationMode.ASYNC), List.of(1),
        "netty", Map.of("levels", "[1]"), Map.of("dubbo async", plain));
    Map<String, LatencyRecorder.RequestStats> gatling = new LinkedHashMap<>();
    gatling.put("dubbo echo 1 clients (async)", stats("dubbo echo 1 clients (async)", 800, 800));
    gatling.put("netty echo 1 clients (async)", stats("netty echo 1 clients (async)", 4000, 4000));
    List<ComparisonReport.Row> rows = report.rows(gatling);
    assertEquals(2, rows.size());
    ComparisonReport.Row dubbo = rows.get(0);
    assertEquals(0.2, dubbo.ceilingRatio(), 1e-9);
    assertEquals(1000, dubbo.plainThroughput(), 1);
    assertEquals(0.8, dubbo.gatlingVsPlain(), 0.01);
    assertEquals(800, dubbo.callsPerClient());
    assertNull(rows.get(1).plainThroughput());

    report.written(dir, List.copyOf(gatling.values()), false);
    String html = Files.readString(dir.resolve(ComparisonReport.HTML));
    assertTrue(html.contains("data-series=\"dubbo\"") && html.contains("id=\"p99-chart\""));
    assertEquals(3, Files.readAllLines(dir.resolve(ComparisonReport.CSV)).size());
  }

  @Test
  void requestPagesAreNamedAsGatlingNamesThem() {
    // Seen in a Gatling 3.15.1 report folder.
    assertEquals("req_dubbo-echo-1-cl--1534942603.html",
        ComparisonReport.gatlingRequestPage("dubbo echo 1 clients (async)"));
  }

  @Test
  void niceAxisCeilings() {
    assertEquals(50_000, ComparisonReport.niceCeiling(41_234), 1e-9);
    assertEquals(250, ComparisonReport.niceCeiling(201), 1e-9);
    assertEquals(1, ComparisonReport.niceCeiling(0), 1e-9);
  }
}
