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
import protocols.frameworks.Frameworks;
import protocols.lab.EmbeddedServer;
import protocols.lab.RpcFramework;

/**
 * Short real runs of four frameworks, each server in its own JVM, in two shootouts: async against
 * servers the test started (-Dtarget.NAME), and sync against the embedded servers with one of each
 * framework's own settings, which the summary must show; and callback mode on every framework.
 */
class EchoIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final Duration LIMIT = Duration.ofMinutes(4);

  private static final List<String> FRAMEWORKS = List.of("dubbo", "thrift", "grpc", "ice");

  /**
   * Async against servers the test started, one per framework, in one shootout (-Dtarget.NAME): each
   * level served with no KO (Thrift's and Dubbo's on Gatling's loops), and the servers left running. One Gatling JVM for all four (each echo
   * simulation runs on its own in the ITs of its capability: RpcReportIT, RegistryIT, OpenModelIT, ...).
   */
  @Test
  void asyncRunsAgainstServersStartedByTheTest() throws Exception {
    List<EmbeddedServer> servers = new java.util.ArrayList<>();
    try {
      // Thrift on its loops path (the lab's framed connections on Gatling's loops) and Dubbo's client on
      // Gatling's loops, their default clients being the other tests'.
      Map<String, String> params = new java.util.HashMap<>(Map.of("frameworks", String.join(",", FRAMEWORKS),
          "levels", "1,20", "duration", "4", "warmup", "2", "thrift.client", "loops", "dubbo.client", "loops"));
      for (String name : FRAMEWORKS) {
        RpcFramework<?, ?> framework = Frameworks.byName(name);
        EmbeddedServer server = EmbeddedServer.start(name, framework.serverMainClass(), List.of());
        servers.add(server);
        params.put("target." + name, server.address().toString());
      }
      GatlingProcess.Result run = GatlingProcess.run("RpcShootout", params, RESULTS.resolve("async-target"), LIMIT);
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      for (String name : FRAMEWORKS) {
        GatlingProcess.assertLevel(requests, name + " echo 1 clients (async)", 1);
        GatlingProcess.assertLevel(requests, name + " echo 20 clients (async)", 20);
      }
      for (JsonNode protocol : run.summary().get("run").get("protocols")) {
        // Each table says its client's connections and hops per call; Thrift's, which async path ran.
        assertTrue(protocol.get("hopsPerCall").asText().matches("\\d+ hops? per call: .+"), protocol.toString());
        assertFalse(protocol.has("server"), "a target's settings are not the lab's to name: " + protocol);
        if (protocol.get("framework").asText().equals("thrift")) {
          assertTrue(protocol.get("asyncClient").asText().startsWith("loops:"), protocol.toString());
          assertTrue(protocol.get("hopsPerCall").asText().startsWith("0 hops"), protocol.toString());
        }
        if (protocol.get("framework").asText().equals("dubbo")) {
          assertTrue(protocol.get("client").asText().startsWith("loops"), protocol.toString());
          assertTrue(protocol.get("hopsPerCall").asText().startsWith("0 hops"), protocol.toString());
        }
      }
      servers.forEach(s -> assertTrue(s.isAlive(), "a run with -Dtarget leaves the server alone"));
    } finally {
      servers.forEach(EmbeddedServer::close);
    }
  }

  /**
   * Sync at 20 clients against the embedded servers, each framework with one of its own -D settings in
   * one shootout, which each protocol table must show, the server's side as the server says it runs;
   * the servers are gone after the run.
   */
  @Test
  void syncRunsAgainstTheEmbeddedServersWithEachFrameworksOwnSettings() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", String.join(",", FRAMEWORKS),
        "levels", "20", "duration", "4", "warmup", "1", "mode", "sync", "serialization", "kryo", "thrift.protocol",
        "compact", "connections", "2", "grpc.compression", "gzip"), RESULTS.resolve("sync-embedded"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode root = run.summary();
    Map<String, Map.Entry<String, String>> expected = Map.of("dubbo", Map.entry("serialization", "kryo"),
        "thrift", Map.entry("protocol", "compact"), "grpc", Map.entry("compression", "gzip"),
        "ice", Map.entry("connections", "2"));
    Map<String, String> servers = Map.of("dubbo", "serialization kryo", "thrift", "compact protocol",
        "grpc", "replies gzip-compressed", "ice", "server thread pool");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (JsonNode protocol : root.get("run").get("protocols")) {
      String name = protocol.get("framework").asText();
      GatlingProcess.assertLevel(root.get("requests"), name + " echo 20 clients (sync)", 20);
      Map.Entry<String, String> setting = expected.get(name);
      assertEquals(setting.getValue(), protocol.get(setting.getKey()).asText(), protocol.toString());
      assertTrue(protocol.path("server").asText().contains(servers.get(name)), "the server's side: " + protocol);
      assertEquals("sync", protocol.get("mode").asText());
      assertEquals(200, protocol.get("syncThreads").asInt());
      seen.add(name);
    }
    assertEquals(expected.keySet(), seen);
    assertFalse(ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive),
        "the embedded servers are gone after the run");
  }

  /**
   * Callback mode on every framework, in one shootout with the plain driver: each level served with no
   * KO, and the protocol table says what callback mode called (gRPC: its async stub's StreamObserver;
   * the others: which path it shares).
   */
  @Test
  void callbackModeRunsEachFrameworksCallbackApi() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout",
        Map.of("levels", "5", "duration", "3", "warmup", "1", "mode", "callback", "plain", "true", "repeat", "1"),
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
