package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fault injected into the embedded server mid-level: the client recovers, the run passes, and the
 * report tells when the server went away, came back, and when calls worked again.
 */
class FaultsIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "faults");

  @Test
  void theCeilingsClientReconnectsAfterItsServerIsKilledAndRestarted() throws Exception {
    // The ceiling's client once never reconnected: 1.5 million KO after a restart.
    GatlingProcess.Result run = GatlingProcess.run("NettyEcho",
        Map.of("levels", "5", "duration", "14", "warmup", "0", "faults", "kill@2s,restart@3s"),
        RESULTS.resolve("netty-kill"), Duration.ofMinutes(2));
    assertEquals(0, run.exitCode(), "KO outside the fault window stays under -DmaxKoPercent:\n" + run.output());
    JsonNode summary = run.summary();
    JsonNode fault = summary.get("run").get("faults").get(0);
    assertEquals("echo 5 clients (async)", fault.get("request").asText());
    assertEquals("kill", fault.get("events").get(0).get("action").asText());
    assertEquals("restart", fault.get("events").get(1).get("action").asText());
    assertFalse(fault.get("events").get(1).has("error"), fault.toString());
    assertTrue(fault.get("recovered").asBoolean(), fault.toString());
    long firstOk = fault.get("firstOkAfterRestoreMillis").asLong();
    assertTrue(firstOk >= 0 && firstOk <= 5_000, "first OK " + firstOk + " ms after the server was back");
    assertTrue(fault.get("koDuringFault").asLong() > 0, "the kill was felt: " + fault);
    JsonNode during = summary.get("requests").get("echo 5 clients (async) during fault");
    assertEquals(fault.get("koDuringFault").asLong(), during.get("ko").asLong(), "the fault's KOs are its row's");
    GatlingProcess.assertLevel(summary.get("requests"), "echo 5 clients (async)", 5);

    String page = Files.readString(run.runFolder().resolve("rpc-report.html"));
    assertTrue(page.contains("<tr data-fault-request=\"echo 5 clients (async)\">"), "the faults table");
    assertTrue(page.contains("class=\"band\""), "the fault is marked on the throughput chart");
  }
}
