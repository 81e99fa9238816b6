package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import protocols.lab.TestProcesses;

/**
 * rpc-report.html as a person sees it, and the validity warnings: a page whose numbers are the run's,
 * and a level run on a machine kept busy by something else that says so.
 */
class RpcReportIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  @Test
  void theReportShowsEachLevelsFiguresAndChartsAndGatlingPointsToIt() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("ThriftEcho",
        Map.of("levels", "1,5", "duration", "4", "warmup", "auto", "warmupMax", "8"), RESULTS.resolve("report"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode requests = summary.get("requests");
    Path folder = run.runFolder();
    JsonNode warmup = summary.get("run").get("warmups").get(0);
    assertEquals("warm-up (async)", warmup.get("request").asText());
    double warmupSeconds = warmup.get("seconds").asDouble();
    assertTrue(warmupSeconds > 0 && warmupSeconds <= 9.5, "auto warm-up within its 8 s bound: " + warmupSeconds);

    List<String> lines = run.output().strip().lines().toList();
    String named = lines.size() < 2 ? "" : lines.get(lines.size() - 2);
    assertTrue(named.contains(folder.resolve("rpc-report.html").toAbsolutePath().toString()),
        "the console ends by naming the µs page, then the outcome: " + named);
    assertEquals("RESULT: ok: assertions passed (2 of 2)", lines.get(lines.size() - 1));
    assertEquals("ok", summary.get("outcome").asText());
    assertTrue(Files.readString(folder.resolve("index.html")).contains("rpc-report.html"),
        "Gatling's report says where the µs page is (run description)");

    Path page = folder.resolve("rpc-report.html").toAbsolutePath();
    if (!Chromium.available()) {
      return;
    }
    String dom = Chromium.run("--dump-dom", page.toUri().toString());
    for (String level : List.of("echo 1 clients (async)", "echo 5 clients (async)")) {
      JsonNode r = requests.get(level);
      int at = dom.indexOf("<tr data-request=\"" + level + "\"");
      assertTrue(at >= 0, "rendered table lacks " + level);
      String row = dom.substring(at, dom.indexOf("</tr>", at));
      String throughput = String.format(Locale.ROOT, "%.0f", r.get("throughput").asDouble());
      assertTrue(row.contains("<td class=\"throughput\">" + throughput + "</td>"), row);
      assertTrue(row.contains("<td class=\"p99\">" + r.get("p99").asLong() + "</td>"), row);
      assertTrue(row.contains("<td class=\"count\">" + r.get("count").asLong() + "</td>"), row);
      for (String chart : List.of("spectrum-0", "throughput-0")) {
        int start = dom.indexOf("id=\"" + chart + "\"");
        assertTrue(start >= 0, chart + " not rendered");
        String svg = dom.substring(start, dom.indexOf("</svg>", start));
        String label = level.replace("echo ", "").replace(" (async)", "");
        assertTrue(svg.contains("data-series=\"" + label + "\""), chart + " has no line for " + label);
      }
    }
    int warnings = summary.get("warnings").size();
    assertEquals(warnings, count(dom, "<li class=\"warning\""), "one item per warning of rpc-summary.json");
    assertEquals(warnings == 0, dom.contains("id=\"no-warnings\""), "the no-warnings box only without warnings");
    assertEquals(warnings > 0, dom.contains("id=\"warnings\""), "the warnings box only with warnings");
    Path png = folder.resolve("rpc-report.png");
    // Tall enough for the charts below the warnings box of a busy machine.
    Chromium.run("--screenshot=" + png.toAbsolutePath(), "--window-size=1280,4000", page.toUri().toString());
    BufferedImage image = ImageIO.read(png.toFile());
    assertNotNull(image, "a screenshot");
    assertTrue(Chromium.pixels(image, 0x1f77b4) > 20, "the first level's lines are drawn");
    assertTrue(Chromium.pixels(image, 0xd62728) > 20, "the second level's lines are drawn");
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void aLevelRunWhileSomethingElseHoldsTheCoresIsFlagged() throws Exception {
    // Busy loops in this JVM, which is neither the Gatling JVM nor its server: "other work".
    // Bounded: they stop when the run ends, or after the run's time limit at the latest.
    AtomicBoolean stop = new AtomicBoolean();
    long deadline = System.nanoTime() + LIMIT.toNanos();
    List<Thread> hogs = new ArrayList<>();
    for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
      Thread t = new Thread(() -> {
        long x = 0;
        while (!stop.get() && System.nanoTime() < deadline) {
          x += x * 31 + 7;
        }
        if (x == 42) {
          System.out.print("");
        }
      }, "cpu-hog-" + i);
      t.setDaemon(true);
      hogs.add(t);
      t.start();
    }
    GatlingProcess.Result run;
    try {
      run = GatlingProcess.run("NettyEcho", Map.of("levels", "5", "duration", "4", "warmup", "0"),
          RESULTS.resolve("busy"), LIMIT);
    } finally {
      stop.set(true);
      for (Thread t : hogs) {
        t.join();
      }
    }
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    List<String> kinds = new ArrayList<>();
    for (JsonNode w : summary.get("warnings")) {
      if (w.get("request").asText().equals("echo 5 clients (async)")) {
        kinds.add(w.get("kind").asText());
      }
    }
    assertTrue(kinds.contains("busy-machine"), "warnings: " + summary.get("warnings"));
    double rest = summary.get("requests").get("echo 5 clients (async)").get("validity").get("cpuRest").asDouble();
    assertTrue(rest > 0.10, "other work's CPU share: " + rest);
    assertTrue(run.output().contains("WARNING [busy-machine] echo 5 clients (async)"), "said on the console too");
    String page = Files.readString(run.runFolder().resolve("rpc-report.html"));
    assertTrue(page.contains("data-kind=\"busy-machine\""), "and at the top of rpc-report.html");
  }

  @Test
  void anInterruptedRunStopsItsServerAndStillWritesItsReports() throws Exception {
    // LabRun's order when the JVM is stopped mid-level: the embedded server stopped, the summary and the
    // page written from what ran, marked interrupted; Gatling's simulation.log left in the run folder.
    Path results = RESULTS.resolve("interrupted");
    Process gatling = GatlingProcess.start("NettyEcho", Map.of("levels", "1", "duration", "60", "warmup", "0"),
        results);
    List<ProcessHandle> servers = List.of();
    try {
      Path log = GatlingProcess.log(results);
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      // Gatling's console names the level in its 5-second progress lines once calls have completed.
      while (gatling.isAlive() && System.nanoTime() < deadline
          && !Files.readString(log).contains("> echo 1 clients (async)")) {
        Thread.sleep(200);
      }
      assertTrue(gatling.isAlive(), "the level is running: " + Files.readString(log));
      servers = TestProcesses.under(gatling.toHandle(), servers.netty.NettyEchoServer.class.getName());
      assertEquals(1, servers.size(), "its server runs");
      gatling.destroy(); // SIGTERM, as Ctrl-C or a CI job's cancel
      assertTrue(gatling.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the run ended");
      assertTrue(gatling.exitValue() != 0, "an interrupted run is no success");
    } finally {
      gatling.destroyForcibly();
    }
    // An orphan keeps its pid: the server must be gone once its Gatling JVM is, not a moment later.
    assertTrue(TestProcesses.ended(servers, Duration.ZERO), "the server was stopped");
    servers.forEach(ProcessHandle::destroyForcibly);
    // No Gatling HTML: Gatling makes it after the run, and this one was stopped.
    Path folder = new GatlingProcess.Result(gatling.exitValue(), "", results).runFolder();
    JsonNode summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
        folder.resolve("rpc-summary.json").toFile());
    assertTrue(summary.get("run").get("interrupted").asBoolean(), "marked interrupted");
    assertTrue(summary.get("requests").get("echo 1 clients (async)").get("count").asLong() > 0, "what ran is there");
    assertTrue(Files.readString(folder.resolve("rpc-report.html")).contains("The run was interrupted"));
    assertTrue(Files.exists(folder.resolve("simulation.log")), "Gatling's log stays, for -Dgatling.reportsOnly");
  }
}
