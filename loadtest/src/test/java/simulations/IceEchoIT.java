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
import servers.ice.IceEchoServer;

/** Short real IceEcho runs against real Ice servers, each in its own JVM. */
class IceEchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  @Test
  void asyncRunAgainstAServerStartedByTheTest() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("ice", IceEchoServer.class.getName(), List.of())) {
      GatlingProcess.Result run = GatlingProcess.run("IceEcho",
          Map.of("levels", "1,20", "duration", "4", "warmup", "2", "target", server.address().toString()),
          RESULTS.resolve("ice-async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      GatlingProcess.assertLevel(requests, "echo 1 clients (async)", 1);
      GatlingProcess.assertLevel(requests, "echo 20 clients (async)", 20);
      assertTrue(server.isAlive());
    }
  }

  @Test
  void syncRunOverThreeConnectionsAgainstTheEmbeddedServer() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("IceEcho",
        Map.of("levels", "20", "duration", "4", "warmup", "1", "mode", "sync", "connections", "3"),
        RESULTS.resolve("ice-sync-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    GatlingProcess.assertLevel(run.summary().get("requests"), "echo 20 clients (sync)", 20);
  }
}
