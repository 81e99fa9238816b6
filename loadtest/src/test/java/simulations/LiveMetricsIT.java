package simulations;

import protocols.lab.LoopbackPorts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The injector's Prometheus endpoint scraped by a real Prometheus (Debian's, which .ci/run installs),
 * on loopback: what Prometheus stored for each request agrees with the run's rpc-summary.json.
 */
class LiveMetricsIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "live-metrics");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void prometheusScrapesTheInjectorAndItsCountersAgreeWithTheRunsSummary() throws Exception {
    int metricsPort = LoopbackPorts.next();
    int serverMetricsPort = LoopbackPorts.next();
    int prometheusPort = LoopbackPorts.next();
    Path dir = Files.createDirectories(RESULTS.resolve("prometheus").toAbsolutePath());
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, String.join("\n",
        "global:",
        "  scrape_interval: 1s",
        "  scrape_timeout: 1s",
        "scrape_configs:",
        "  - job_name: rpc-load-lab",
        "    static_configs:",
        "      - targets: ['127.0.0.1:" + metricsPort + "', '127.0.0.1:" + serverMetricsPort + "']",
        ""));
    Process prometheus = new ProcessBuilder("prometheus", "--config.file=" + config,
        "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + prometheusPort)
        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    try {
      GatlingProcess.Result run = GatlingProcess.run("DubboEcho", Map.of("levels", "2,5", "rates", "300",
          "duration", "4", "warmup", "1", "metrics.port", Integer.toString(metricsPort), "metrics.serverPort",
          Integer.toString(serverMetricsPort), "metrics.linger", "3", "live", "1"),
          RESULTS.resolve("run"), Duration.ofMinutes(3));
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("metrics: http://127.0.0.1:" + metricsPort + "/metrics"), run.output());
      assertTrue(run.output().matches("(?s).*\nlive \\d+ s \\| echo 5 clients \\(async\\): \\d+ calls/s, p50 .*"),
          "a console line a second: " + run.output());
      // Counters only grow, so the largest value Prometheus stored is the last it scraped; the endpoint
      // stayed up 3 scrape intervals after the run (-Dmetrics.linger), so that is the run's final count.
      JsonNode result = query("max_over_time(rpc_calls_total[10m])", prometheusPort);
      Map<String, Long> scraped = new HashMap<>();
      for (JsonNode series : result) {
        String request = series.get("metric").get("request").asText();
        assertEquals("dubbo", series.get("metric").get("framework").asText(), series.toString());
        scraped.merge(request, Math.round(series.get("value").get(1).asDouble()), Long::sum);
      }
      JsonNode requests = run.summary().get("requests");
      assertEquals(requests.size(), scraped.size(), "every request scraped: " + scraped);
      requests.fields().forEachRemaining(e -> assertEquals(e.getValue().get("count").asLong(),
          scraped.get(e.getKey()), e.getKey() + ": Prometheus against rpc-summary.json"));
      JsonNode p99 = query("max_over_time(rpc_latency_recent_seconds{quantile=\"0.99\",level=\"5 clients\"}[10m])",
          prometheusPort);
      assertEquals(1, p99.size(), p99.toString());
      assertTrue(p99.get(0).get("value").get(1).asDouble() > 0, "a recent p99 was served: " + p99);
      // The embedded server's own endpoint: every call it served (the run's, and the probe's echo).
      long served = Math.round(query("max_over_time(echo_server_calls_total{framework=\"dubbo\"}[10m])",
          prometheusPort).get(0).get("value").get(1).asDouble());
      assertEquals(scraped.values().stream().mapToLong(Long::longValue).sum() + 1, served,
          "the server's own count against the injector's");
      // Every query of the Grafana dashboard, at a moment of the rate level: valid PromQL, and data.
      JsonNode level = requests.get("echo 300 calls/s (async)");
      long at = (level.get("startEpochMillis").asLong() + 3_000) / 1_000;
      JsonNode dashboard = new ObjectMapper().readTree(Paths.get("..", "deploy", "grafana", "rpc-load-lab.json").toFile());
      int queries = 0;
      for (JsonNode panel : dashboard.get("panels")) {
        for (JsonNode target : panel.path("targets")) {
          String expr = target.get("expr").asText().replace("$__rate_interval", "10s").replace("$framework", ".*");
          JsonNode data = query(expr, prometheusPort, at);
          assertTrue(data.size() > 0, panel.get("title").asText() + ": no data for " + expr);
          queries++;
        }
      }
      assertTrue(queries >= 10, queries + " dashboard queries");
    } finally {
      prometheus.destroy();
      prometheus.waitFor();
    }
  }

  /** The result of an instant query through Prometheus' HTTP API, now. */
  private static JsonNode query(String promql, int port) throws Exception {
    return query(promql, port, 0);
  }

  /** The same at {@code epochSeconds} (0: now). */
  private static JsonNode query(String promql, int port, long epochSeconds) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
        + (epochSeconds > 0 ? "&time=" + epochSeconds : "")))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    JsonNode body = new ObjectMapper().readTree(response.body());
    assertEquals("success", body.get("status").asText(), response.body());
    return body.get("data").get("result");
  }
}
