package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.EmbeddedServer;
import servers.dubbo.DubboEchoServer;

/** Short real DubboEcho runs against real Dubbo servers, each in its own JVM. */
class DubboEchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  @Test
  void asyncRunAgainstAServerStartedByTheTest() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(), List.of())) {
      GatlingProcess.Result run = GatlingProcess.run("DubboEcho",
          Map.of("levels", "1,5", "duration", "4", "warmup", "2", "target", server.address().toString()),
          RESULTS.resolve("dubbo-async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      assertLevel(requests, "echo 1 clients (async)", 1000);
      assertLevel(requests, "echo 5 clients (async)", 2000);
      assertTrue(server.isAlive(), "a run with -Dtarget leaves the server alone");
    }
  }

  @Test
  void syncKryoRunAgainstTheEmbeddedServer() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("DubboEcho",
        Map.of("levels", "20", "duration", "4", "warmup", "1", "mode", "sync", "serialization", "kryo"),
        RESULTS.resolve("dubbo-sync-kryo-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    assertLevel(root.get("requests"), "echo 20 clients (sync)", 2000);
    JsonNode protocol = root.get("run").get("protocols").get(0);
    assertEquals("kryo", protocol.get("serialization").asText());
    assertEquals("sync", protocol.get("mode").asText());
    assertEquals(200, protocol.get("syncThreads").asInt());
    assertFalse(ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive),
        "the embedded server is gone after the run");
  }

  /** At least {@code minOk} OK calls, no KO, and µs figures that hang together. */
  static void assertLevel(JsonNode requests, String name, long minOk) {
    JsonNode r = requests.get(name);
    assertTrue(r != null, name + " missing from " + requests);
    long count = r.get("count").asLong();
    assertEquals(0, r.get("ko").asLong(), name + " KOs");
    assertTrue(count >= minOk, name + ": only " + count + " calls");
    long p50 = r.get("p50").asLong();
    long p99 = r.get("p99").asLong();
    long max = r.get("max").asLong();
    // Loopback echo: tens of µs at the very least, well under the 3 s timeout at p50.
    assertTrue(p50 >= 10 && p50 < 1_000_000, name + " p50 " + p50 + " µs");
    assertTrue(p50 <= p99 && p99 <= max, name + " p50 " + p50 + " <= p99 " + p99 + " <= max " + max);
    double throughput = r.get("throughput").asDouble();
    double expected = count / r.get("durationSeconds").asDouble();
    assertEquals(expected, throughput, expected * 0.01 + 1, name + " throughput");
  }
}
