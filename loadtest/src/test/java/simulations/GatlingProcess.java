package simulations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import protocols.core.JvmCommand;

/**
 * Runs a simulation the way the Maven plugin does: Gatling's own main class in a fresh JVM, with
 * this test's class path and -D parameters. Bounded in time; killed if it overruns.
 */
final class GatlingProcess {

  record Result(int exitCode, String output, Path resultsRoot) {
    /** The single run folder Gatling created under the results root. */
    Path runFolder() throws IOException {
      try (Stream<Path> dirs = Files.list(resultsRoot)) {
        List<Path> runs = dirs.filter(Files::isDirectory).toList();
        if (runs.size() != 1) {
          throw new IllegalStateException("expected one run folder in " + resultsRoot + ", found " + runs);
        }
        return runs.get(0);
      }
    }

    /** The run's rpc-summary.json, checked to sit next to Gatling's index.html. */
    JsonNode summary() throws IOException {
      Path folder = runFolder();
      if (!Files.exists(folder.resolve("index.html"))) {
        throw new AssertionError("no Gatling report in " + folder);
      }
      Path summary = folder.resolve("rpc-summary.json");
      if (!Files.exists(summary)) {
        throw new AssertionError("no rpc-summary.json next to index.html in " + folder);
      }
      return new ObjectMapper().readTree(Files.readString(summary));
    }
  }

  private GatlingProcess() {}

  private static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  static Result run(String simulation, Map<String, String> properties, Path resultsRoot, Duration limit)
      throws IOException, InterruptedException {
    deleteRecursively(resultsRoot); // a run folder from an earlier build would be ambiguous
    Files.createDirectories(resultsRoot);
    List<String> jvmOptions = new ArrayList<>();
    properties.forEach((k, v) -> jvmOptions.add("-D" + k + "=" + v));
    List<String> command = JvmCommand.of(jvmOptions, "io.gatling.app.Gatling",
        List.of("-s", "simulations." + simulation, "-rf", resultsRoot.toString()));
    Path log = resultsRoot.resolveSibling(resultsRoot.getFileName() + ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
      throw new AssertionError(simulation + " did not finish within " + limit + "; output in " + log);
    }
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), resultsRoot);
  }
}
