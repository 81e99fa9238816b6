package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.rpc.RpcSettings;
import protocols.lab.TestProcesses;

/**
 * Frameworks as they are deployed: Dubbo through a real ZooKeeper, Ice through Debian's real IceGrid
 * registry, each with two providers the lab starts. Each provider counts what it served; faults kill
 * one provider, or the registry, mid-level; nothing the run started outlives it.
 */
class RegistryIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "registry");
  private static final Duration LIMIT = Duration.ofMinutes(4);

  @Test
  void dubboThroughZooKeeperSpreadsOverItsProvidersAndFailsOverWhenOneDies() throws Exception {
    // The restarted provider is a new JVM that starts Dubbo and registers again: 7 s on an idle machine
    // here, 12 s at 300 calls/s, 30 s once in CI; so a long level at a low rate, which leaves it CPU.
    GatlingProcess.Result run = GatlingProcess.run("DubboEcho", Map.of("registry", "zookeeper", "providers", "2",
        "rates", "100", "duration", "45", "warmup", "2", "faults", "kill@3s:provider=1,restart@4s:provider=1"),
        RESULTS.resolve("dubbo-zookeeper"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode protocol = summary.get("run").get("protocols").get(0);
    assertTrue(protocol.get("registry").asText().matches("zookeeper://127\\.0\\.0\\.1:\\d+"), protocol.toString());
    // The table names the addresses the registry gave: both providers', as they registered them.
    assertTrue(protocol.get("providersFound").asText().matches("contract\\.dubbo\\.MobileService found in "
        + "zookeeper://127\\.0\\.0\\.1:\\d+ \\(/dubbo/contract\\.dubbo\\.MobileService/providers\\) at "
        + "127\\.0\\.0\\.1:\\d+, 127\\.0\\.0\\.1:\\d+"), protocol.toString());
    List<Long> served = served(protocol, 2);
    assertTrue(served.get(1) > 0, "the provider never killed served calls: " + served);
    JsonNode fault = summary.get("run").get("faults").get(0);
    assertEquals(List.of("kill provider 1", "restart provider 1"), actions(fault));
    // The other provider took the calls: Dubbo's cluster stops choosing a provider whose connection is gone.
    assertTrue(fault.get("okDuringFault").asLong() > 0, fault.toString());
    // Calls failed for at most 5 s after the kill. The restarted provider registers before its READY line: on a
    // loaded CI its first calls timed out (6 at 3 s, ending in the second before READY, 21 s after the restart
    // began), which stretched failedForMillis to 21 s; those are the restart's, not the failover's: calls that
    // end (koPerSecond counts by the end) from 5 s before READY to one call timeout after it.
    JsonNode during = summary.get("requests").get("echo 100 calls/s (async) during fault");
    double firstSecond = (during.get("startEpochMillis").asLong()
        - summary.get("requests").get("echo 100 calls/s (async)").get("startEpochMillis").asLong()) / 1000.0;
    double killed = fault.get("events").get(0).get("doneSeconds").asDouble();
    double back = fault.get("events").get(1).get("doneSeconds").asDouble();
    JsonNode koPerSecond = during.get("koPerSecond");
    for (int i = 0; i < koPerSecond.size(); i++) {
      double second = firstSecond + i;
      boolean restarts = second + 1 > back - 5 && second <= back + RpcSettings.DEFAULT_TIMEOUT.toSeconds();
      assertTrue(koPerSecond.get(i).asLong() == 0 || second < killed + 5 || restarts,
          "KO " + (second - killed) + " s after the kill, " + (back - second) + " s before the restarted provider was"
              + " ready: " + koPerSecond + " " + fault);
    }
    assertFalse(fault.get("servedAgainAfterMillis").isNull(), "the restarted provider got calls again: " + fault);
    assertNothingLeft(run);
  }

  @Test
  void iceThroughIceGridSpreadsOverItsProvidersAndGoesOnWhileItsRegistryIsDown() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("IceEcho", Map.of("registry", "icegrid", "providers", "2",
        "levels", "5", "duration", "8", "warmup", "0", "faults", "kill@3s:registry"),
        RESULTS.resolve("ice-icegrid"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode protocol = summary.get("run").get("protocols").get(0);
    assertTrue(protocol.get("registry").asText().matches("icegrid://127\\.0\\.0\\.1:\\d+"), protocol.toString());
    assertEquals("EchoGroup", protocol.get("adapterId").asText());
    assertTrue(protocol.get("firstCallMillis").asLong() > 0, "the time to the first call, through the locator");
    List<Long> served = served(protocol, 2);
    long calls = 0;
    for (JsonNode r : summary.get("requests")) {
      calls += r.get("count").asLong();
    }
    // No provider was killed, so the providers' own counts are exact: every call, and the probe's one echo.
    assertEquals(calls + 1, served.get(0) + served.get(1), "providers' counts " + served + " against " + calls
        + " calls");
    assertTrue(served.get(0) > 0 && served.get(1) > 0, "Ice spread the calls over both: " + served);
    JsonNode down = summary.get("requests").get("echo 5 clients (async) during fault");
    assertTrue(down.get("count").asLong() > 0 && down.get("ko").asLong() == 0,
        "calls went on through the endpoints Ice had resolved: " + down);
    assertNothingLeft(run);
  }

  @Test
  void theShootoutRunsEachFrameworkDirectAndThroughItsRegistrySideBySide() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", "triple,ice,grpc",
        "discovery", "direct,registry", "levels", "5", "duration", "3", "warmup", "0"),
        RESULTS.resolve("discovery"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode comparison = new ObjectMapper().readTree(run.runFolder().resolve("comparison.json").toFile());
    Map<String, JsonNode> rows = new java.util.LinkedHashMap<>();
    comparison.get("rows").forEach(r -> rows.put(r.get("framework").asText(), r));
    // gRPC has no registry of its own: direct only. Triple finds its providers in ZooKeeper, as Dubbo does.
    assertEquals(List.of("triple", "triple via zookeeper", "ice", "ice via icegrid", "grpc"), List.copyOf(rows.keySet()));
    assertEquals(2, comparison.get("twoWays").size(), comparison.get("twoWays").toString());
    for (int i = 0; i < 2; i++) {
      JsonNode pair = comparison.get("twoWays").get(i);
      assertEquals("discovery", pair.get("contrast").asText());
      String framework = List.of("triple", "ice").get(i);
      assertEquals(List.of("zookeeper", "icegrid").get(i), pair.get("variantLabel").asText());
      assertTrue(pair.get("baselineFirstCallMillis").asLong() > 0 && pair.get("variantFirstCallMillis").asLong() > 0,
          pair.toString());
      JsonNode row = comparison.get("twoWaysRows").get(i);
      JsonNode direct = rows.get(framework);
      JsonNode via = rows.get(framework + " via " + pair.get("variantLabel").asText());
      assertEquals(direct.get("throughput").asDouble(), row.get("baselineThroughput").asDouble(), 1e-6);
      // Over trials the row's ratio is its pair's (the interval's centre), not the medians' ratio.
      JsonNode interval = row.get("variantVsBaselineInterval");
      assertEquals(interval.isNull() ? via.get("throughput").asDouble() / direct.get("throughput").asDouble()
          : interval.get("mid").asDouble(), row.get("variantVsBaseline").asDouble(), 1e-6, row.toString());
      // Each way's protocol table: its own servers, its own first call.
      List<JsonNode> tables = new ArrayList<>();
      run.summary().get("run").get("protocols").forEach(p -> {
        if (p.get("framework").asText().equals(framework)) {
          tables.add(p);
        }
      });
      assertEquals(2, tables.size(), tables.toString());
      assertTrue(tables.stream().anyMatch(p -> p.has("registry") && p.get("firstCallMillis").asLong()
          == pair.get("variantFirstCallMillis").asLong()), tables.toString());
      assertTrue(tables.stream().anyMatch(p -> p.has("target") && p.get("firstCallMillis").asLong()
          == pair.get("baselineFirstCallMillis").asLong()), tables.toString());
    }
    assertTrue(java.nio.file.Files.readString(run.runFolder().resolve("comparison.html")).contains("id=\"discovery\""));
    assertNothingLeft(run);
  }

  @Test
  void iceGridMissingIsOneLineNamingThePackage() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("IceEcho", Map.of("registry", "icegrid"),
        RESULTS.resolve("no-icegrid"), LIMIT, Map.of("PATH", "/nonexistent"));
    assertNotEquals(0, run.exitCode());
    assertEquals(1, run.output().lines().filter(l -> l.startsWith("error: -Dregistry=icegrid needs ZeroC's IceGrid"
        + " registry (icegridregistry), not found on PATH: install Debian's zeroc-icegrid")).count(), run.output());
    assertFalse(run.output().lines().anyMatch(l -> l.trim().startsWith("at ")), run.output());
    assertNothingLeft(run);
  }

  private static List<Long> served(JsonNode protocol, int providers) {
    JsonNode list = protocol.get("servedByProvider");
    assertEquals(providers, list.size(), protocol.toString());
    List<Long> out = new ArrayList<>();
    list.forEach(p -> out.add(p.get("served").asLong()));
    return out;
  }

  private static List<String> actions(JsonNode fault) {
    List<String> out = new ArrayList<>();
    fault.get("events").forEach(e -> {
      assertTrue(e.get("error") == null || e.get("error").isNull(), e.toString());
      out.add(e.get("action").asText());
    });
    return out;
  }

  private static void assertNothingLeft(GatlingProcess.Result run) throws InterruptedException {
    assertTrue(TestProcesses.ended(run.children(), Duration.ofSeconds(5)), "left running after the run: "
        + run.children().stream().filter(ProcessHandle::isAlive).map(p -> p.info().command().orElse("?")).toList());
  }
}
