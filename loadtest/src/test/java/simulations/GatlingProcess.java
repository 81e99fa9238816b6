package simulations;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
  }

  private GatlingProcess() {}

  static Result run(String simulation, Map<String, String> properties, Path resultsRoot, Duration limit)
      throws IOException, InterruptedException {
    Files.createDirectories(resultsRoot);
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens"))
        .forEach(command::add);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.add("io.gatling.app.Gatling");
    command.add("-s");
    command.add("simulations." + simulation);
    command.add("-rf");
    command.add(resultsRoot.toString());
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
