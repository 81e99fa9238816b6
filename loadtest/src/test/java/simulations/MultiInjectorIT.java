package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import protocols.stats.LatencyRecorder;
import protocols.stats.Summaries;
import protocols.stats.Histograms;

/**
 * {@code -Dinjectors=2}: two Gatling JVMs against one embedded server, started together, merged into
 * one summary whose counts are the injectors' counts together, and their simulation.log files' too.
 */
class MultiInjectorIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "multi-injector");
  private static final String LEVEL = "echo 5 clients (async)";
  private static final String RATE = "echo 200 calls/s (async)";

  @Test
  void twoInjectorsMergeIntoOneExactResult() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("DubboEcho", Map.of("injectors", "2", "levels", "5", "rates",
        "200", "duration", "4", "warmup", "2", "startDelay", "30"), RESULTS, Duration.ofMinutes(4));
    assertEquals(0, run.exitCode(), run.output());
    Path root = run.runFolder();
    assertTrue(root.getFileName().toString().startsWith("dubboecho-injectors-"), root.toString());
    JsonNode merged = new ObjectMapper().readTree(root.resolve(Summaries.FILE).toFile());
    String page = Files.readString(root.resolve("rpc-report.html"));

    List<Path> injectors = new ArrayList<>();
    List<JsonNode> summaries = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path folder = onlyRun(root.resolve("injector-" + i));
      injectors.add(folder);
      JsonNode s = new ObjectMapper().readTree(folder.resolve(Summaries.FILE).toFile());
      GatlingProcess.assertCountsMatchSimulationLog(folder, s.get("requests"));
      assertEquals(i, s.get("run").get("injector").get("index").asInt());
      assertEquals(2, s.get("run").get("injector").get("count").asInt());
      summaries.add(s);
      // The merged page links each injector's own Gatling report, and it is there.
      String link = root.relativize(folder.resolve("index.html")).toString();
      assertTrue(page.contains("href=\"" + link + "\""), "the merged page links " + link);
      assertTrue(Files.exists(folder.resolve("index.html")), link);
    }
    assertEquals(summaries.get(0).get("run").get("injector").get("startAt"),
        summaries.get(1).get("run").get("injector").get("startAt"), "one -DstartAt for both");

    for (String name : List.of(LEVEL, RATE)) {
      JsonNode m = merged.get("requests").get(name);
      long count = 0;
      long ko = 0;
      long logCalls = 0;
      Histogram sum = new Histogram(3);
      List<Long> p99s = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        JsonNode r = summaries.get(i).get("requests").get(name);
        assertTrue(r.get("count").asLong() > 0, name + ": injector " + i + " made calls");
        count += r.get("count").asLong();
        ko += r.get("ko").asLong();
        long[] log = GatlingProcess.simulationLogCounts(injectors.get(i), name);
        logCalls += log[0] + log[1];
        sum.add(Histograms.decode(r.get("histogram").asText()));
        p99s.add(r.get("p99").asLong());
      }
      assertEquals(count, m.get("count").asLong(), name + ": merged = injector 0 + injector 1");
      assertEquals(logCalls, m.get("count").asLong(), name + ": merged = both simulation.log files");
      assertEquals(ko, m.get("ko").asLong());
      assertEquals(0, ko, name + " KOs: " + m.get("koReasons"));
      assertEquals(sum, Histograms.decode(m.get("histogram").asText()), name + ": exact histogram merge");
      long p99 = m.get("p99").asLong();
      assertTrue(p99 >= p99s.stream().mapToLong(Long::longValue).min().orElseThrow()
          && p99 <= p99s.stream().mapToLong(Long::longValue).max().orElseThrow(), name + " merged p99 " + p99
          + " lies between the injectors' " + p99s);
      // Started together: every injector began the level within a second of the first, or the merged report
      // says which did not (a busy machine delayed one by 1,163 ms in a CI run).
      for (JsonNode row : merged.get("run").get("perInjector").get(name)) {
        boolean warned = false;
        for (JsonNode w : merged.get("warnings")) {
          warned |= w.get("kind").asText().equals("late-start") && w.get("request").asText().equals(name);
        }
        assertTrue(row.get("startOffsetMillis").asLong() <= 1_000 || warned, name + ": " + row + ", warnings "
            + merged.get("warnings"));
      }
    }
    // Each injector offered 200 calls/s for 4 s: the merged level was offered both.
    JsonNode open = merged.get("requests").get(RATE).get("open");
    assertEquals(400.0, open.get("offeredPerSecond").asDouble(), 1e-9);
    assertEquals(1_600, merged.get("requests").get(RATE).get("count").asLong() + open.get("dropped").asLong());
    assertTrue(run.output().contains("Merged RPC report: "), run.output());
  }

  private static Path onlyRun(Path injector) throws Exception {
    try (Stream<Path> runs = Files.list(injector)) {
      List<Path> found = runs.filter(Files::isDirectory).toList();
      assertEquals(1, found.size(), injector + ": " + found);
      return found.get(0);
    }
  }
}
