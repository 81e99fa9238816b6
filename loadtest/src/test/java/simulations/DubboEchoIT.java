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
      GatlingProcess.assertLevel(requests, "echo 1 clients (async)", 1);
      GatlingProcess.assertLevel(requests, "echo 5 clients (async)", 5);
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
    GatlingProcess.assertLevel(root.get("requests"), "echo 20 clients (sync)", 20);
    JsonNode protocol = root.get("run").get("protocols").get(0);
    assertEquals("kryo", protocol.get("serialization").asText());
    assertEquals("sync", protocol.get("mode").asText());
    assertEquals(200, protocol.get("syncThreads").asInt());
    assertFalse(ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive),
        "the embedded server is gone after the run");
  }
}
