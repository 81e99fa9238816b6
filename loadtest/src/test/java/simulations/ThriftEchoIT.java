package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.EmbeddedServer;
import servers.thrift.ThriftEchoServer;

/** Short real ThriftEcho runs against real Thrift servers, each in its own JVM. */
class ThriftEchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  @Test
  void asyncRunAgainstAServerStartedByTheTest() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of())) {
      GatlingProcess.Result run = GatlingProcess.run("ThriftEcho",
          Map.of("levels", "1,5", "duration", "4", "warmup", "2", "target", server.address().toString()),
          RESULTS.resolve("thrift-async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      GatlingProcess.assertLevel(requests, "echo 1 clients (async)", 1);
      GatlingProcess.assertLevel(requests, "echo 5 clients (async)", 5);
      assertTrue(server.isAlive());
    }
  }

  @Test
  void syncCompactRunAgainstTheEmbeddedServer() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("ThriftEcho",
        Map.of("levels", "20", "duration", "4", "warmup", "1", "mode", "sync", "thrift.protocol", "compact"),
        RESULTS.resolve("thrift-sync-compact-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    GatlingProcess.assertLevel(root.get("requests"), "echo 20 clients (sync)", 20);
    assertEquals("compact", root.get("run").get("protocols").get(0).get("protocol").asText());
  }
}
