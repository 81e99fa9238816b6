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
import protocols.grpc.lab.GrpcFramework;
import protocols.lab.EmbeddedServer;
import protocols.lab.LoadParams;

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
  void aSimulationOfOnesOwnNeedsOnlyTheDslAndStillGetsTheMicrosecondReport() throws Exception {
    // GrpcOwnService imports the plugin's DSL and Gatling only (LayersTest holds that); a server of one's own.
    LoadParams none = new LoadParams(Map.of());
    try (EmbeddedServer server = EmbeddedServer.start("grpc", GrpcFramework.FRAMEWORK.serverMainClass(),
        GrpcFramework.FRAMEWORK.serverArgs(none))) {
      GatlingProcess.Result run = GatlingProcess.run("GrpcOwnService",
          Map.of("target", server.address().toString(), "users", "2", "duration", "2"),
          RESULTS.resolve("grpc-own-service"), Duration.ofMinutes(2));
      assertEquals(0, run.exitCode(), run.output());
      JsonNode requests = run.summary().get("requests");
      for (String name : List.of("ListOrders", "Hello")) {
        JsonNode r = requests.get(name);
        assertNotNull(r, name + " missing: " + requests);
        assertTrue(r.get("count").asLong() >= 2, name + ": " + r);
        assertEquals(0, r.get("ko").asLong(), name + ": " + r);
      }
      assertEquals(requests.get("ListOrders").get("count").asLong(), requests.get("Hello").get("count").asLong(),
          "each user's ListOrders is followed by its Hello");
      assertTrue(java.nio.file.Files.exists(run.runFolder().resolve("rpc-report.html")), "the µs page");
      GatlingProcess.assertCountsMatchSimulationLog(run.runFolder(), requests);
    }
  }
}
