package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.lab.TestProcesses;

/**
 * A short real shootout of every framework, the ceiling and the plain driver, then its
 * comparison.html as a person sees it: loaded in headless Chromium, with the table and both charts
 * carrying the run's numbers.
 */
class RpcShootoutIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final List<String> FRAMEWORKS = List.of("dubbo", "triple", "thrift", "grpc", "ice", "netty");
  private static Path folder;
  private static JsonNode comparison;

  @BeforeAll
  static void runShootout() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout",
        Map.of("levels", "1,5", "duration", "2", "warmup", "1", "plain", "true", "repeat", "1"),
        RESULTS.resolve("shootout"), Duration.ofMinutes(6));
    assertEquals(0, run.exitCode(), run.output());
    folder = run.runFolder();
    run.summary(); // counts cross-checked with simulation.log
    assertTrue(Files.exists(folder.resolve("rpc-report.html")), "the shootout has its µs page too");
    comparison = new ObjectMapper().readTree(folder.resolve("comparison.json").toFile());
  }

  @Test
  void everyFrameworkAndLevelHasARowWithRatios() throws Exception {
    JsonNode rows = comparison.get("rows");
    assertEquals(FRAMEWORKS.size() * 2, rows.size(), rows.toString());
    for (JsonNode r : rows) {
      String what = r.get("framework").asText() + " " + r.get("clients").asInt();
      assertEquals(0, r.get("ko").asLong(), what);
      assertTrue(r.get("totalCalls").asLong() >= r.get("clients").asInt(), what + ": every client called");
      assertTrue(r.get("p50").asLong() > 0 && r.get("p50").asLong() <= r.get("p99").asLong(), what);
      assertTrue(r.get("ceilingRatio").asDouble() > 0, what);
      // On a starved machine the plain driver may measure next to nothing: then the ratio is flagged, not printed.
      assertTrue(r.get("gatlingVsPlain").asDouble() > 0 || !r.get("plainFlag").isNull(), what + ": the plain ratio");
      assertFalse(r.get("connections").asText().isEmpty(), what + ": its client's connections");
      assertTrue(r.get("hopsPerCall").asInt(-1) >= 0, what + ": its hops per call");
    }
    rows.forEach(r -> {
      if (r.get("framework").asText().equals("netty")) { // on the user's own loop: no hop
        assertEquals(0, r.get("hopsPerCall").asInt(), r.toString());
      }
    });
    rows.forEach(r -> {
      if (r.get("framework").asText().equals("netty")) {
        assertEquals(1.0, r.get("ceilingRatio").asDouble(), 1e-9);
      }
    });
    List<String> csv = Files.readAllLines(folder.resolve("comparison.csv"));
    assertEquals(1 + rows.size(), csv.size());
    assertTrue(comparison.get("machine").get("cores").asInt() >= 1);
    assertFalse(comparison.get("versions").get("dubbo").asText().contains("$"), "versions filled in by Maven");
  }

  @Test
  void anInterruptedShootoutLeavesNoPlainDriverRunning() throws Exception {
    Path results = RESULTS.resolve("shootout-interrupted");
    Process gatling = GatlingProcess.start("RpcShootout",
        Map.of("frameworks", "netty", "levels", "5", "duration", "30", "warmup", "0", "plain", "true"), results);
    List<ProcessHandle> drivers = List.of();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (drivers.isEmpty() && gatling.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(200);
        drivers = TestProcesses.under(gatling.toHandle(), "protocols.shootout.PlainDriver");
      }
      assertEquals(1, drivers.size(), "the plain driver runs: " + Files.readString(GatlingProcess.log(results)));
      List<ProcessHandle> servers = TestProcesses.under(gatling.toHandle(), "NettyEchoServer");
      assertEquals(1, servers.size(), "its server runs");
      String server = TestProcesses.commandLine(servers.get(0));
      Thread.sleep(5_000); // into its 30 s level (killed while it still connects, it would end by itself)
      gatling.destroy(); // SIGTERM, as Ctrl-C or a CI job's cancel
      assertTrue(gatling.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the shootout ended");
      assertTrue(TestProcesses.ended(drivers, Duration.ofSeconds(10)), "a plain driver outlived its shootout");
      // Not only that server: none on its port, such as one restarted for Gatling as the run ended.
      assertTrue(TestProcesses.noneRuns(server, Duration.ofSeconds(10)), "a server outlived its shootout: " + server
          .replace('\0', ' '));
    } finally {
      gatling.destroyForcibly();
      drivers.forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void linksPointAtGatlingsReportPages() throws Exception {
    String html = Files.readString(folder.resolve("comparison.html"));
    Matcher links = Pattern.compile("href=\"([^\"]+)\"").matcher(html);
    int n = 0;
    while (links.find()) {
      assertTrue(Files.exists(folder.resolve(links.group(1))), "link to a missing page: " + links.group(1));
      n++;
    }
    assertEquals(2 + comparison.get("rows").size(), n, "rpc-report.html, index.html and one page per row");
    for (String fetch : List.of("src=", "<link", "url(", "@import", "<script")) {
      assertFalse(html.contains(fetch), "self-contained: no " + fetch);
    }
  }

  @Test
  void chromiumRendersTheTableAndBothCharts() throws Exception {
    Path page = folder.resolve("comparison.html").toAbsolutePath();
    if (!Chromium.available()) {
      return;
    }
    String dom = Chromium.run("--dump-dom", page.toUri().toString());
    for (JsonNode r : comparison.get("rows")) {
      String throughput = String.format(Locale.ROOT, "%.0f", r.get("throughput").asDouble());
      String row = "data-framework=\"" + r.get("framework").asText() + "\" data-mode=\"" + r.get("mode").asText()
          + "\" data-clients=\"" + r.get("clients").asInt() + "\"";
      int at = dom.indexOf(row);
      assertTrue(at >= 0, "rendered table lacks " + row);
      String rowHtml = dom.substring(at, dom.indexOf("</tr>", at));
      assertTrue(rowHtml.contains("<td class=\"throughput\">" + throughput + "</td>"), rowHtml);
      assertTrue(rowHtml.contains("<td class=\"p99\">" + r.get("p99").asLong() + "</td>"), rowHtml);
    }
    for (String chart : List.of("throughput-chart", "p99-chart")) {
      int start = dom.indexOf("id=\"" + chart + "\"");
      assertTrue(start >= 0, chart + " not rendered");
      String svg = dom.substring(start, dom.indexOf("</svg>", start));
      for (String f : FRAMEWORKS) {
        assertTrue(svg.contains("data-series=\"" + f + "\""), chart + " has no line for " + f);
      }
    }
    Path png = folder.resolve("comparison.png");
    // Tall enough for the charts below a long warnings box: a busy machine (two ITs at a time) gave 29
    // warnings here, and the charts began at 1,600 px of a 1,800-px screenshot.
    Chromium.run("--screenshot=" + png.toAbsolutePath(), "--window-size=1280,4000", page.toUri().toString());
    BufferedImage image = ImageIO.read(png.toFile());
    assertNotNull(image, "a screenshot");
    // The series' colours are drawn: the charts are on screen, not just in the DOM. All of them together,
    // as lines of equal figures cover each other (on a busy machine Dubbo's and gRPC's coincided).
    int drawn = 0;
    for (int rgb : new int[] {0x1f77b4, 0xd62728, 0x2ca02c, 0x9467bd, 0xff7f0e}) {
      drawn += Chromium.pixels(image, rgb);
    }
    assertTrue(drawn > 100, "pixels of the series: " + drawn);
  }
}
