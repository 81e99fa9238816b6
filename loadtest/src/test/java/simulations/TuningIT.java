package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RpcTuning, small: Thrift's defaults, its compact protocol (both sides) and its loops client, two
 * interleaved trials at 2 clients. Every configuration is measured against its own server, which says
 * what it runs; the report has a row per configuration with intervals, the ratio to the defaults, a best
 * configuration and each knob's effect; a bad knob value ends the run before anything starts.
 */
class TuningIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "tuning");

  @Test
  void eachConfigurationIsMeasuredAgainstItsOwnServerAndReported() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcTuning", Map.of("frameworks", "thrift",
        "knobs", "thrift.protocol,thrift.client", "levels", "2", "repeat", "2", "seed", "7", "duration", "2",
        "warmup", "2", "payload", "2048"), RESULTS, Duration.ofMinutes(5));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("3 configurations:"), run.output());
    assertTrue(run.output().contains("thrift protocol=compact: the server runs TThreadedSelectorServer, 2 selector"
        + " threads, 200 workers, compact protocol, framed"), "the knob reached the server: " + run.output());

    JsonNode tuning = new ObjectMapper().readTree(run.runFolder().resolve("tuning.json").toFile());
    assertEquals("2048", tuning.get("parameters").get("payload (bytes of the order's name)").asText());
    assertEquals("2048", run.summary().get("run").get("settings").get("orderNameChars").asText(),
        "every configuration's calls carry the 2 KiB order");
    List<String> configurations = new ArrayList<>();
    for (JsonNode r : tuning.get("rows")) {
      configurations.add(r.get("configuration").asText());
      assertEquals(2, r.get("clients").asInt(), r.toString());
      assertEquals(2, r.get("trials").asInt(), r.toString());
      assertTrue(r.get("calls").asLong() >= 2, r.toString());
      assertEquals(0, r.get("ko").asLong(), r.toString());
      JsonNode calls = r.get("callsPerSecond");
      assertTrue(calls.get("lo").asDouble() <= calls.get("mid").asDouble()
          && calls.get("mid").asDouble() <= calls.get("hi").asDouble(), r.toString());
      if (r.get("defaults").asBoolean()) {
        assertTrue(r.get("vsDefaults").isNull(), r.toString());
      } else {
        JsonNode vs = r.get("vsDefaults");
        assertTrue(vs.get("lo").asDouble() <= vs.get("mid").asDouble() && vs.get("mid").asDouble()
            <= vs.get("hi").asDouble(), r.toString());
        assertFalse(r.get("verdict").asText().isEmpty(), r.toString());
      }
    }
    assertEquals(List.of("thrift", "thrift protocol=compact", "thrift client=loops"), configurations);
    assertTrue(tuning.get("rows").get(1).get("server").asText().contains("compact protocol"));
    assertEquals(1, tuning.get("best").size());
    assertTrue(configurations.contains(tuning.get("best").get(0).get("configuration").asText()), tuning.toString());
    assertEquals(2, tuning.get("knobs").size());
    assertEquals(java.util.Set.of("thrift.protocol", "thrift.client"),
        new ObjectMapper().convertValue(tuning.get("tuned").get("thrift"), Map.class).keySet(),
        "the next base names each knob");
    assertEquals(4, Files.readAllLines(run.runFolder().resolve("tuning.csv")).size(), "a header and three rows");
    String page = Files.readString(run.runFolder().resolve("tuning.html"));
    assertTrue(page.contains("id=\"best\"") && page.contains("thrift protocol=compact"), "the page");
    assertTrue(run.output().contains("Tuning report: "), run.output());
  }

  @Test
  void aTunedShootoutRunsEachFrameworkAsShippedAndTunedSideBySide() throws Exception {
    // Beside the run's results folder, which GatlingProcess empties before the run.
    Path tuned = Files.createDirectories(RESULTS.resolve("tuned-input")).resolve("tuned.json").toAbsolutePath();
    Files.writeString(tuned, "{\"thrift\": {\"thrift.protocol\": \"compact\"}}");
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", "thrift", "tuned",
        tuned.toString(), "levels", "2", "repeat", "2", "seed", "8", "duration", "2", "warmup", "2"),
        RESULTS.resolve("tuned"), Duration.ofMinutes(4));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode comparison = new ObjectMapper().readTree(run.runFolder().resolve("comparison.json").toFile());
    List<String> rows = new ArrayList<>();
    comparison.get("rows").forEach(r -> {
      rows.add(r.get("framework").asText());
      assertEquals(0, r.get("ko").asLong(), r.toString());
    });
    assertEquals(List.of("thrift", "thrift protocol=compact"), rows, "as shipped, then tuned, each named");
    JsonNode pair = comparison.get("pairs").get(0);
    assertEquals("thrift", pair.get("baseline").asText());
    assertEquals("thrift protocol=compact", pair.get("candidate").asText());
    assertTrue(pair.get("throughputRatio").get("lo").asDouble() <= pair.get("throughputRatio").get("hi").asDouble());
    assertTrue(Files.readString(run.runFolder().resolve("comparison.html")).contains("thrift protocol=compact"));
  }

  @Test
  void aBadKnobValueIsOneLineBeforeAnythingStarts() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("RpcTuning", Map.of("frameworks", "thrift",
        "thrift.selectors", "0"), RESULTS.resolve("bad"), Duration.ofSeconds(90));
    assertEquals(1, run.exitCode(), run.output());
    assertEquals(1, run.output().lines().filter(l -> l.startsWith("error: -Dthrift.selectors must be a whole number"))
        .count(), run.output());
    assertFalse(run.output().contains("configurations:"), "nothing started: " + run.output());
  }
}
