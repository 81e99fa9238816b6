package protocols.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;

class LiveMetricsTest {

  private static String scrape(LiveMetrics live) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, live.registry().scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachRequestIsOneSeriesLabelledWithItsLevelAndEachCallIsCountedOnce() throws Exception {
    Level level = Level.closed("grpc", 20, InvocationMode.ASYNC);
    Map<String, Level> levels = Map.of(level.name(), level);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (LiveMetrics live = new LiveMetrics("127.0.0.1", 0, 0, new PrintStream(console), levels::get, () -> "",
        Optional::empty)) {
      for (int i = 0; i < 10; i++) {
        live.started(level.name());
        live.completed(level.name(), 0, 0, 250_000L * (i + 1), i == 9 ? "timeout" : null, false);
      }
      live.started(level.name()); // one still in flight
      live.started("own request");
      live.completed("own request", 0, 1_000_000, 3_000_000, null, true); // sent 1 ms late, 3 ms from its due time
      live.openLevel("own request", 100);
      live.tick(); // the histograms close their second
      String text = scrape(live);
      String labels = "framework=\"grpc\",level=\"20 clients\",mode=\"async\"";
      assertTrue(text.contains("rpc_calls_total{" + labels + ",outcome=\"ok\",request=\"grpc echo 20 clients (async)\"} 9"),
          text);
      assertTrue(text.contains("rpc_calls_total{" + labels + ",outcome=\"ko\",request=\"grpc echo 20 clients (async)\"} 1"),
          text);
      assertTrue(text.contains("rpc_calls_in_flight{" + labels + ",request=\"grpc echo 20 clients (async)\"} 1"), text);
      assertTrue(text.contains("rpc_latency_seconds_count{" + labels + ",request=\"grpc echo 20 clients (async)\"} 9"),
          text);
      // A simulation's own request: its name is its level; its latency counts from when it was due.
      String own = "framework=\"\",level=\"own request\",mode=\"\",request=\"own request\"";
      assertTrue(text.contains("rpc_latency_seconds_bucket{" + own + ",le=\"0.002\"} 0"), text);
      assertTrue(text.contains("rpc_latency_seconds_bucket{" + own + ",le=\"0.005\"} 1"), text);
      assertTrue(text.contains("rpc_send_lag_seconds_bucket{" + own + ",le=\"0.001\"} 1"), text);
      assertTrue(text.contains("rpc_offered_rate{" + own + "} 100"), text);
    }
  }
}
