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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import protocols.frameworks.Frameworks;
import protocols.lab.EmbeddedServer;
import protocols.lab.RpcFramework;

/**
 * Short real runs of each framework's echo simulation, each server in its own JVM: async against a
 * server the test started (-Dtarget), and sync against the embedded server with one of the
 * framework's own settings, which the summary must show.
 */
class EchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(3);

  /** Framework, simulation, and the two levels of its async run. */
  static Stream<Arguments> asyncRuns() {
    return Stream.of(
        Arguments.of("dubbo", "DubboEcho", 1, 5),
        Arguments.of("thrift", "ThriftEcho", 1, 5),
        Arguments.of("grpc", "GrpcEcho", 20, 100),
        Arguments.of("ice", "IceEcho", 1, 20));
  }

  @ParameterizedTest(name = "{1} async at {2} and {3} clients against -Dtarget")
  @MethodSource("asyncRuns")
  void asyncRunAgainstAServerStartedByTheTest(String name, String simulation, int low, int high) throws Exception {
    RpcFramework<?, ?> framework = Frameworks.byName(name);
    try (EmbeddedServer server = EmbeddedServer.start(name, framework.serverMainClass(), List.of())) {
      GatlingProcess.Result run = GatlingProcess.run(simulation,
          Map.of("levels", low + "," + high, "duration", "4", "warmup", "2", "target", server.address().toString()),
          RESULTS.resolve(name + "-async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      GatlingProcess.assertLevel(requests, "echo " + low + " clients (async)", low);
      GatlingProcess.assertLevel(requests, "echo " + high + " clients (async)", high);
      assertTrue(server.isAlive(), "a run with -Dtarget leaves the server alone");
    }
  }

  /** Framework, simulation, its own -D setting for the sync run, and what the summary's protocol then says. */
  static Stream<Arguments> syncRuns() {
    return Stream.of(
        Arguments.of("dubbo", "DubboEcho", "serialization", "kryo", "serialization", "kryo"),
        Arguments.of("thrift", "ThriftEcho", "thrift.protocol", "compact", "protocol", "compact"),
        Arguments.of("grpc", "GrpcEcho", "connections", "2", "channels", "2"),
        Arguments.of("ice", "IceEcho", "connections", "3", "connections", "3"));
  }

  @ParameterizedTest(name = "{1} sync at 20 clients, -D{2}={3}, embedded server")
  @MethodSource("syncRuns")
  void syncRunAgainstTheEmbeddedServer(String name, String simulation, String param, String value, String field,
                                       String expected) throws Exception {
    GatlingProcess.Result run = GatlingProcess.run(simulation,
        Map.of("levels", "20", "duration", "4", "warmup", "1", "mode", "sync", param, value),
        RESULTS.resolve(name + "-sync-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    GatlingProcess.assertLevel(root.get("requests"), "echo 20 clients (sync)", 20);
    JsonNode protocol = root.get("run").get("protocols").get(0);
    assertEquals(expected, protocol.get(field).asText(), protocol.toString());
    assertEquals("sync", protocol.get("mode").asText());
    assertEquals(200, protocol.get("syncThreads").asInt());
    assertFalse(ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive),
        "the embedded server is gone after the run");
  }

  /**
   * Callback mode on every framework, in one shootout with the plain driver: each level served with no
   * KO, and the protocol table says what callback mode called (gRPC: its async stub's StreamObserver;
   * the others: which path it shares).
   */
  @Test
  void callbackModeRunsEachFrameworksCallbackApi() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout",
        Map.of("levels", "5", "duration", "3", "warmup", "1", "mode", "callback", "plain", "true"),
        RESULTS.resolve("callback"), Duration.ofMinutes(6));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    for (String name : Frameworks.names()) {
      GatlingProcess.assertLevel(root.get("requests"), name + " echo 5 clients (callback)", 5);
    }
    Map<String, String> callbackApis = new java.util.HashMap<>();
    root.get("run").get("protocols").forEach(p -> {
      assertEquals("callback", p.get("mode").asText(), p.toString());
      callbackApis.put(p.get("framework").asText(), p.get("callback").asText());
    });
    assertEquals(Frameworks.names().size(), callbackApis.size(), callbackApis.toString());
    assertTrue(callbackApis.get("grpc").contains("StreamObserver"), callbackApis.get("grpc"));
    assertTrue(callbackApis.get("thrift").contains("AsyncMethodCallback"), callbackApis.get("thrift"));
    assertTrue(callbackApis.get("dubbo").contains("onreturn"), callbackApis.get("dubbo"));
    assertTrue(callbackApis.get("triple").contains("same path as async"), callbackApis.get("triple"));
    JsonNode rows = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(run.runFolder().resolve("comparison.json").toFile()).get("rows");
    assertEquals(Frameworks.names().size(), rows.size(), rows.toString());
    for (JsonNode r : rows) {
      assertEquals("callback", r.get("mode").asText());
      assertTrue(r.get("plainThroughput").asDouble() > 0 || !r.get("plainFlag").isNull(),
          r.get("framework") + ": the plain driver ran callback mode too");
    }
  }
}
