package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * -Dprofile=true: a flame graph per measured level for the injector and for the server, linked from
 * the level's row, and breakdowns whose shares add up to 1; async-profiler where it loads, JDK Flight
 * Recorder with one line saying so where it does not (its library hidden here), its sides without µs per
 * call; nothing left in /tmp.
 * With the plain driver, its JVM profiled too: a third side per level, and the harness's CPU by component.
 */
class ProfileIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "profile");
  private static final Duration LIMIT = Duration.ofMinutes(3);
  private static final String LEVEL = "echo 5 clients (async)";

  @Test
  void aProfiledRunLinksAFlameGraphPerSideAndItsSharesAddUp() throws Exception {
    List<String> tmpBefore = profilerFilesInTmp();
    GatlingProcess.Result run = GatlingProcess.run("GrpcEcho", Map.of("levels", "5", "duration", "4", "warmup", "2",
        "settle", "0", "profile", "true"), RESULTS.resolve("async-profiler"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode profiles = assertProfiled(run);
    assertTrue(profiles.get("profiler").asText().startsWith("async-profiler"), profiles.toString());
    for (JsonNode side : profiles.get("levels")) {
      JsonNode perCall = side.get("cpuUsPerCall");
      assertTrue(perCall.isObject() && perCall.size() > 0, "CPU µs per call from a CPU profile: " + side);
    }
    Path folder = run.runFolder().resolve("profiles");
    try (Stream<Path> files = Files.list(folder)) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".so")), "the library is deleted");
    }
    assertEquals(tmpBefore, profilerFilesInTmp(), "nothing of a profile stays in /tmp");
  }

  @Test
  void withoutItsLibraryTheRunSaysSoOnceAndSamplesWithFlightRecorder() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("GrpcEcho", Map.of("levels", "5", "duration", "4", "warmup", "2",
        "settle", "0", "profile", "true", "profilerLibrary", "/nonexistent/libasyncProfiler.so"),
        RESULTS.resolve("jfr"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    assertEquals(1, run.output().lines().filter(l -> l.startsWith("profile: async-profiler could not load")
        && l.contains("JDK Flight Recorder")).count(), run.output());
    JsonNode profiles = assertProfiled(run);
    assertTrue(profiles.get("profiler").asText().startsWith("JDK Flight Recorder"), profiles.toString());
    for (JsonNode side : profiles.get("levels")) {
      assertTrue(side.path("cpuUsPerCall").isEmpty(), "JFR's method samples are not CPU time: no µs per call: " + side);
    }
  }

  @Test
  void aProfiledShootoutProfilesThePlainDriverBesideGatling() throws Exception {
    List<String> tmpBefore = profilerFilesInTmp();
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", "grpc", "levels", "5",
        "duration", "3", "warmup", "1", "settle", "0", "repeat", "1", "plain", "true", "profile", "true"),
        RESULTS.resolve("plain"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    Path folder = run.runFolder();
    JsonNode comparison = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(folder.resolve("comparison.json").toFile());
    String page = Files.readString(folder.resolve("comparison.html"), StandardCharsets.UTF_8);
    List<String> sides = new ArrayList<>();
    for (JsonNode side : comparison.get("profiles")) {
      assertEquals("grpc", side.get("framework").asText(), side.toString());
      assertEquals(5, side.get("clients").asInt(), side.toString());
      sides.add(side.get("side").asText());
      String graph = side.get("flameGraph").asText();
      assertTrue(Files.size(folder.resolve(graph)) > 10_000, graph + " is a flame graph");
      assertTrue(page.contains("href=\"" + graph + "\""), "the page links " + graph);
      assertTrue(side.get("cpuUsPerCall").size() > 0, "CPU µs per call on every side: " + side);
    }
    assertEquals(List.of("injector", "server", "plain"), sides, "the plain driver's side beside Gatling's");
    assertEquals(1, run.output().lines().filter(l -> l.startsWith("grpc ") && l.contains(" async ")
        && run.output().indexOf(l) > run.output().indexOf("Where the harness's CPU goes")).count(), run.output());
    try (Stream<Path> files = Files.list(folder.resolve("profiles"))) {
      List<String> names = files.map(f -> f.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("plain-") && n.endsWith(".jfr")), names.toString());
      assertTrue(names.stream().noneMatch(n -> n.endsWith(".so")), "the library is deleted: " + names);
    }
    assertEquals(tmpBefore, profilerFilesInTmp(), "nothing of a profile stays in /tmp");
  }

  /** Both sides of the level: their flame graphs written and linked, their shares adding up to 1. */
  private static JsonNode assertProfiled(GatlingProcess.Result run) throws IOException {
    JsonNode summary = run.summary();
    JsonNode profiles = summary.get("profiles");
    assertTrue(profiles != null && profiles.get("problems").isEmpty(), String.valueOf(profiles));
    Path folder = run.runFolder();
    String page = Files.readString(folder.resolve("rpc-report.html"), StandardCharsets.UTF_8);
    List<String> sides = new ArrayList<>();
    for (JsonNode side : profiles.get("levels")) {
      assertEquals(LEVEL, side.get("request").asText(), "warm-ups are never profiled: " + side);
      sides.add(side.get("side").asText());
      String graph = side.get("flameGraph").asText();
      Path html = folder.resolve(graph);
      assertTrue(Files.size(html) > 10_000, html + " is a flame graph");
      assertTrue(page.contains("href=\"" + graph + "\""), "the page links " + graph);
      assertTrue(side.get("samples").asLong() > 0, side.toString());
      double sum = 0;
      for (JsonNode share : side.get("shares")) {
        sum += share.asDouble();
      }
      assertEquals(1.0, sum, 0.01, side.toString());
    }
    assertEquals(List.of("injector", "server"), sides);
    JsonNode injector = profiles.get("levels").get(0);
    double harness = injector.get("harnessShare").asDouble();
    assertTrue(harness > 0 && harness < 1, "the harness's share: " + injector);
    assertFalse(page.contains("{{"), "the page rendered");
    return profiles;
  }

  private static List<String> profilerFilesInTmp() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.contains("asyncProfiler") || n.endsWith(".jfr") || n.startsWith("async-profiler")
              || n.matches("\\d{4}_\\d\\d_\\d\\d_.*")) // a JFR repository
          .sorted().toList();
    }
  }
}
