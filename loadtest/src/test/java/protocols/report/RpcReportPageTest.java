package protocols.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.load.RunAnalysis;
import protocols.stats.FaultedLevel;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.stats.RequestStats;
import protocols.stats.RunInfo;
import protocols.stats.Summaries;

class RpcReportPageTest {

  @Test
  void theValidityBoxSaysWhatWasNotChecked() {
    LatencyRecorder r = new LatencyRecorder();
    for (int i = 0; i < 5_000; i++) {
      long start = i * 1_000_000L;
      r.record("echo 1 clients (async)", start, start + 100_000, true);
    }
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of())
        .withCpuNotSampledBecause("no /proc/stat to read the machine's CPU time from (Linux only)");
    assertEquals(List.of(), a.warnings());
    String page = RpcReportPage.render("t", r.snapshot(), List.of(), a, RunInfo.ofRun(List.of(), false, RunInfo.Injector.ALONE, 0, "run",
        Map.of(), List.of(), List.of()), false, null);
    assertTrue(page.contains("id=\"not-checked\""), "the page says other work was not checked");
    assertTrue(page.contains("(Linux only)"), "and why");
    assertTrue(!page.contains("no other work on the machine above the threshold"), "nor claims it was");
  }

  @Test
  void aRequestWhoseEveryCallFailedShowsNoLatencyNotZero(@TempDir Path dir) throws Exception {
    LatencyRecorder r = new LatencyRecorder();
    for (int i = 0; i < 1_000; i++) {
      long start = i * 1_000_000L;
      r.record("echo 1 clients (async)", start, start + 100_000, true);
      r.record("a method that fails", start, start + 50_000, "UNIMPLEMENTED: no such method");
    }
    List<RequestStats> rows = r.snapshot();
    RunAnalysis a = RunAnalysis.of(rows, Optional.empty(), List.of());
    RunInfo run = RunInfo.ofRun(List.of(), false, RunInfo.Injector.ALONE, 0, "run", Map.of(), List.of(), List.of());
    String page = RpcReportPage.render("t", rows, List.of(), a, run, false, null);
    Matcher failed = Pattern.compile("<tr data-request=\"a method that fails\".*?</tr>").matcher(page);
    assertTrue(failed.find(), page);
    assertTrue(failed.group().contains("<td class=\"p99 no-ok muted\">–</td>"), failed.group());
    assertFalse(failed.group().contains("<td class=\"p99\">0</td>"), failed.group());
    Matcher ok = Pattern.compile("<tr data-request=\"echo 1 clients \\(async\\)\".*?</tr>").matcher(page);
    assertTrue(ok.find() && ok.group().contains("<td class=\"p99\">100</td>"), "an OK request keeps its figures");

    String console = SummaryTable.render(rows);
    String line = console.lines().filter(l -> l.startsWith("a method that fails")).findFirst().orElseThrow();
    assertTrue(line.trim().endsWith("-") && !line.matches(".* 0 +0 .*"), line);

    Path file = Summaries.write(dir.resolve(Summaries.FILE), new Summaries.Summary(run, List.of(), rows, Map.of()));
    JsonNode failedJson = new ObjectMapper().readTree(file.toFile()).get("requests").get("a method that fails");
    assertTrue(failedJson.has("p99") && failedJson.get("p99").isNull(), failedJson.toString());
    assertEquals(1_000, failedJson.get("ko").asLong());
    assertFalse(Summaries.read(file).requests().stream().filter(q -> q.name().equals("a method that fails"))
        .findFirst().orElseThrow().hasOkCalls(), "and reads back as having none");
  }

  @Test
  void theStreamsTableShowsEachStreamingRequestsMessagesAndSaysWhichAreNotEchoes() {
    LatencyRecorder r = new LatencyRecorder();
    r.record("chat", 0, 1_000_000, true);
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of());
    List<protocols.stats.StreamStats> streams = List.of(
        new protocols.stats.StreamStats("chat", 3, 0, 300, 300, 150, 150, 800, 900, 10, 20, 30, 300, 400, 5_000, 6_000,
            7_000, 300, 40, 900, 1_200, null),
        new protocols.stats.StreamStats("watch", 2, 0, 2, 2_000, 1, 1_000, 700, 800, 5, 9, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, null));
    String page = RpcReportPage.render("t", r.snapshot(), streams, a, RunInfo.ofRun(List.of(), false,
        RunInfo.Injector.ALONE, 0, "run", Map.of(), List.of(), List.of()), false, null);
    assertTrue(page.contains("<tr data-stream=\"chat\"><td class=\"n\">chat</td><td class=\"streams\">3</td>"
        + "<td class=\"sent\">300</td><td class=\"received\">300</td>"), "the chat row");
    assertTrue(page.contains("<td class=\"rtt-p99\">5000</td>"), "its round trip p99");
    Matcher watch = Pattern.compile("data-stream=\"watch\">.*?</tr>").matcher(page);
    assertTrue(watch.find() && watch.group().contains("not an echo"), "watch has no round trips");
    assertTrue(page.contains("<td class=\"lag-p99\">900</td>"), "the paced chat's send lag p99");
    assertTrue(watch.group().contains("not paced"), "watch was not paced");
  }

  /** A streaming shootout's trials: each level's medians with intervals, the pair with its verdict, the resolution. */
  @Test
  void theStreamsOverTrialsTablesShowMediansIntervalsAndVerdicts() {
    LatencyRecorder r = new LatencyRecorder();
    r.record("x", 0, 1_000_000, true);
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of());
    List<protocols.stats.StreamStats> streams = new java.util.ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      for (String f : List.of("grpc", "triple")) {
        protocols.stats.StreamLevel level = protocols.stats.StreamLevel.chat(f, 10, 0).trial(t);
        double received = (f.equals("grpc") ? 1_000 : 500) + t;
        streams.add(new protocols.stats.StreamStats(level.name(), 3, 0, 300, 300, received, received, 800, 900, 10,
            20, 30, 300, 400, 5_000, 6_000, 7_000, 0, 0, 0, 0, level));
      }
    }
    protocols.stats.StreamTrials trials = protocols.stats.StreamTrials.of(streams, 1, n -> n.equals("grpc chat 10 streams trial 3"));
    String page = RpcReportPage.render("t", r.snapshot(), streams, a, RunInfo.ofRun(List.of(), false,
        RunInfo.Injector.ALONE, 0, "run", Map.of("seed", "1"), List.of(), List.of()), false, null, null, trials);
    assertTrue(page.contains("<tr data-stream-level=\"grpc chat 10 streams\" class=\"flagged\">"), "gRPC's level, flagged");
    assertTrue(page.contains("1 of 3 trials warned of"), "how many of its trials were warned of");
    assertTrue(page.contains("<td class=\"received\">1002<br><small class=\"interval\">[1001, 1003]</small>"),
        "its median and interval: " + page.substring(page.indexOf("stream-trials")));
    Matcher pair = Pattern.compile("<tr data-baseline=\"grpc\" data-candidate=\"triple\" data-level=\"chat 10 streams\">"
        + ".*?</tr>").matcher(page);
    assertTrue(pair.find() && pair.group().contains("slower"), "triple slower than grpc");
    assertTrue(page.contains("Resolution at chat 10 streams: ±"), "the level's resolution");
    String console = SummaryTable.streamTrials(trials);
    assertTrue(console.contains("triple / grpc, chat 10 streams: received/s 0.50"), console);
    assertTrue(console.contains("warned: 1 of 3 trials"), console);
  }

  /** Rounds interleave a level's trials; the Levels table puts them together and says when each ran. */
  @Test
  void aLevelsTrialsAreListedTogetherWithWhenEachRan() {
    LatencyRecorder r = new LatencyRecorder();
    List<String> ran = new java.util.ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      for (String variant : t == 2 ? List.of("grpc #2", "grpc") : List.of("grpc", "grpc #2")) {
        Level level = Level.closed(variant, 1, protocols.rpc.InvocationMode.ASYNC).trial(t);
        r.describe(level.name(), level);
        r.record(level.name(), 0, 1_000_000L, true);
        ran.add(level.name());
      }
    }
    List<RequestStats> rows = r.snapshot();
    RunAnalysis a = RunAnalysis.of(rows, Optional.empty(), List.of());
    String page = RpcReportPage.render("t", rows, List.of(), a, RunInfo.ofRun(List.of(), false,
        RunInfo.Injector.ALONE, 0, "run", Map.of(), List.of(), List.of()), false, null);
    Matcher row = Pattern.compile("<tr data-request=\"([^\"]+)\".*?class=\"muted ran\">ran (\\d+) of 6<").matcher(page);
    List<String> listed = new java.util.ArrayList<>();
    while (row.find()) {
      listed.add(row.group(1));
      assertEquals(ran.indexOf(row.group(1)) + 1, Integer.parseInt(row.group(2)), row.group(1));
    }
    assertEquals(List.of("grpc echo 1 clients (async) trial 1", "grpc echo 1 clients (async) trial 2",
        "grpc echo 1 clients (async) trial 3", "grpc #2 echo 1 clients (async) trial 1",
        "grpc #2 echo 1 clients (async) trial 2", "grpc #2 echo 1 clients (async) trial 3"), listed);
  }

  @Test
  void aFaultedLevelIsSaidNotJudgedAndItsChartDrawsTheCallsOfItsFaultWindow() {
    List<RequestStats> rows = FaultedLevel.record();
    RunInfo.FaultOutcome fault = new RunInfo.FaultOutcome(FaultedLevel.LEVEL.name(), true, List.of(), 3.03, 5.5,
        247, 5_000, 1L, 1_500L, true, 20.0, 2_600L, null);
    RunAnalysis a = RunAnalysis.of(rows, Optional.empty(), List.of(), List.of(fault));
    assertEquals(List.of(rows.get(0).name(), rows.get(1).name()),
        a.notJudged().stream().map(RunAnalysis.Assessment::request).toList());
    String page = RpcReportPage.render("t", rows, List.of(), a, RunInfo.ofRun(List.of(), false, RunInfo.Injector.ALONE, 0, "run",
        Map.of(), List.of(), List.of(fault)), false, null);
    for (RequestStats r : rows) {
      assertTrue(page.contains("class=\"not-judged\" data-request=\"" + r.name() + "\""), "names " + r.name());
    }
    assertTrue(!page.contains("every measured level at steady state"), "nor claims they were steady");
    String chart = page.substring(page.indexOf("aria-label=\"Calls/s over each level"));
    Map<Double, Double> points = levelLine(chart);
    assertEquals(100, points.get(4.5), 1, "down: one attempt per 10 ms, drawn");
    assertEquals(1_000, points.get(7.5), 1, "back, in the fault window: drawn");
    assertEquals(1_000, points.get(1.5), 1);
    assertTrue(chart.contains("data-from=\"3.03\" data-to=\"5.50\""), "the server down, shaded");
    assertTrue(chart.contains("data-from=\"5.50\" data-to=\"10.50\""), "the rest of the fault window, shaded");
  }

  @Test
  void aLevelThatEndedInsideItsFaultWindowIsDrawnToTheWindowsEnd() {
    // Its calls from 3.03 s to its end went to the fault row: the line must not stop at 3 s.
    List<RequestStats> rows = FaultedLevel.record(20_000);
    RunAnalysis a = RunAnalysis.of(rows, Optional.empty(), List.of());
    String page = RpcReportPage.render("t", rows, List.of(), a, RunInfo.ofRun(List.of(), false, RunInfo.Injector.ALONE, 0, "run",
        Map.of(), List.of(), List.of()), false, null);
    Map<Double, Double> points = levelLine(page);
    assertEquals(100, points.get(4.5), 1, "down: drawn");
    assertEquals(1_000, points.get(18.5), 1, "back, to the window's last full second: " + points);
    assertFalse(points.containsKey(20.5), "nor past its last send");
  }

  /** The 5-client level's line on the first throughput chart of {@code page}: calls/s by second. */
  private static Map<Double, Double> levelLine(String page) {
    String chart = page.substring(page.indexOf("aria-label=\"Calls/s over each level"));
    Matcher line = Pattern.compile("data-series=\"5 clients\" data-values=\"([^\"]*)\"").matcher(chart);
    assertTrue(line.find(), "the level's line");
    Map<Double, Double> points = new java.util.TreeMap<>();
    for (String p : line.group(1).split(" ")) {
      points.put(Double.parseDouble(p.split(":")[0]), Double.parseDouble(p.split(":")[1]));
    }
    return points;
  }
}
