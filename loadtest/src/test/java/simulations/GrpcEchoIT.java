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
import servers.grpc.GrpcEchoServer;

/** Short real GrpcEcho runs at 20 and more users against real gRPC servers, each in its own JVM. */
class GrpcEchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  @Test
  void asyncRunAt20And100UsersAgainstAServerStartedByTheTest() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("grpc", GrpcEchoServer.class.getName(), List.of())) {
      GatlingProcess.Result run = GatlingProcess.run("GrpcEcho",
          Map.of("levels", "20,100", "duration", "4", "warmup", "2", "target", server.address().toString()),
          RESULTS.resolve("grpc-async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      GatlingProcess.assertLevel(requests, "echo 20 clients (async)", 20);
      GatlingProcess.assertLevel(requests, "echo 100 clients (async)", 100);
      assertTrue(server.isAlive());
    }
  }

  @Test
  void syncRunOverTwoChannelsAgainstTheEmbeddedServer() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("GrpcEcho",
        Map.of("levels", "20", "duration", "4", "warmup", "1", "mode", "sync", "connections", "2"),
        RESULTS.resolve("grpc-sync-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    GatlingProcess.assertLevel(root.get("requests"), "echo 20 clients (sync)", 20);
    assertEquals(2, root.get("run").get("protocols").get(0).get("channels").asInt());
  }
}
