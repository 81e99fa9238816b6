package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.frameworks.Frameworks;
import protocols.lab.EmbeddedServer;
import protocols.lab.LoadParams;
import protocols.lab.RpcFramework;

/**
 * The general DSL against the real sample servers: OwnServiceDemo calls listOrders on every framework
 * in every way the DSL offers (generated code, gRPC JSON with a descriptor set and with reflection,
 * Dubbo generic, Ice dynamic), in both invocation models, with checks on the replies, a value saved
 * and sent on, and expected errors checked by their codes.
 */
class OwnServiceIT {
  private static final Path RESULTS = Paths.get("target", "it-results");

  /** Every request the demo makes, per mode: each must have been called, and never failed. */
  private static final List<String> REQUESTS = List.of(
      "dubbo listOrders", "dubbo generic listOrders", "dubbo listOrders bad count",
      "thrift listOrders", "thrift listOrders bad count",
      "grpc ListOrders", "grpc Hello, chained", "grpc ListOrders, descriptor set", "grpc ListOrders, reflection",
      "grpc Chat, reflection", "grpc ListOrders bad count",
      "ice listOrders", "ice dynamic listOrders", "ice listOrders bad count");

  @Test
  void everyWayOfCallingASecondMethodWorksOnEveryFrameworkInBothModes() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("OwnServiceDemo",
        Map.of("duration", "2", "users", "2", "listCount", "7", "mode", "both"),
        RESULTS.resolve("own-service"), Duration.ofMinutes(4));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode requests = run.summary().get("requests");
    List<String> expected = new ArrayList<>();
    for (String mode : List.of("async", "sync")) {
      REQUESTS.forEach(r -> expected.add(r + " (" + mode + ")"));
    }
    for (String name : expected) {
      JsonNode r = requests.get(name);
      assertNotNull(r, name + " was never called; requests: " + requests.fieldNames());
      assertTrue(r.get("count").asLong() > 0, name);
      assertEquals(0, r.get("ko").asLong(), name + ": " + r);
    }
    assertEquals(expected.size(), requests.size(), "no request beyond the demo's: " + requests);
    GatlingProcess.assertCountsMatchSimulationLog(run.runFolder(), requests);
  }

  @Test
  void theFirstHourSimulationsRunAsWrittenAgainstEachFrameworksServer() throws Exception {
    // docs/own-service.md's first hour: <Framework>OwnService -Dtarget=<the server>, on the DSL and Gatling alone
    // (LayersTest holds that), each against a server it did not start, as a user's would be.
    LoadParams none = new LoadParams(Map.of());
    Map<String, List<String>> requestsOf = Map.of("grpc", List.of("ListOrders", "Hello"),
        "dubbo", List.of("listOrders", "hello"), "thrift", List.of("listOrders", "hello"),
        "ice", List.of("listOrders", "hello"));
    for (String name : List.of("grpc", "dubbo", "thrift", "ice")) {
      RpcFramework<?, ?> framework = Frameworks.byName(name);
      String simulation = Character.toUpperCase(name.charAt(0)) + name.substring(1) + "OwnService";
      try (EmbeddedServer server = EmbeddedServer.start(name, framework.serverMainClass(), framework.serverArgs(none))) {
        GatlingProcess.Result run = GatlingProcess.run(simulation,
            Map.of("target", server.address().toString(), "users", "2", "duration", "2"),
            RESULTS.resolve("first-hour-" + name), Duration.ofMinutes(2));
        assertEquals(0, run.exitCode(), simulation + ":\n" + run.output());
        JsonNode requests = run.summary().get("requests");
        List<String> names = requestsOf.get(name);
        for (String request : names) {
          JsonNode r = requests.get(request);
          assertNotNull(r, simulation + ": " + request + " missing: " + requests);
          assertTrue(r.get("count").asLong() >= 2, simulation + ": " + r);
          assertEquals(0, r.get("ko").asLong(), simulation + ": " + r);
        }
        assertEquals(requests.get(names.get(0)).get("count").asLong(), requests.get(names.get(1)).get("count").asLong(),
            simulation + ": each user's list is followed by its hello");
        assertTrue(java.nio.file.Files.exists(run.runFolder().resolve("rpc-report.html")), "the µs page");
        assertTrue(run.output().lines().anyMatch(l -> l.startsWith("RESULT: ok: ")), simulation + ": the outcome");
      }
    }
  }
}
