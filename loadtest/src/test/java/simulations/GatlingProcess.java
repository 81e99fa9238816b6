package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.gatling.charts.stats.GeneralStats;
import io.gatling.charts.stats.LogFileData;
import io.gatling.charts.stats.LogFileReader;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.shared.model.assertion.AssertionValidator;
import protocols.lab.JvmCommand;
import scala.Option;

/**
 * Runs a simulation the way the Maven plugin does: Gatling's own main class in a fresh JVM, with
 * this test's class path and -D parameters. Bounded in time; killed if it overruns.
 */
final class GatlingProcess {

  /** A run's exit, console and results; {@code children}: the processes it started, as seen while it ran. */
  record Result(int exitCode, String output, Path resultsRoot, List<ProcessHandle> children) {
    Result(int exitCode, String output, Path resultsRoot) {
      this(exitCode, output, resultsRoot, List.of());
    }

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
      JsonNode root = new ObjectMapper().readTree(Files.readString(summary));
      LogFileData log = assertCountsMatchSimulationLog(folder, root.get("requests"));
      assertOutcomeAgrees(log, root, exitCode);
      return root;
    }
  }

  /**
   * An independent check of the µs summary: Gatling's own simulation.log, read by Gatling's own
   * reader, must hold the same number of OK and KO responses for every request name.
   */
  static LogFileData assertCountsMatchSimulationLog(Path runFolder, JsonNode requests) {
    LogFileData log = LogFileReader.apply(runFolder.getFileName().toString(), runFolder.getParent(),
        GatlingConfiguration.load()).read();
    int compared = 0;
    for (var it = requests.fields(); it.hasNext(); ) {
      var e = it.next();
      long ok = count(log, e.getKey(), OK$.MODULE$);
      long ko = count(log, e.getKey(), KO$.MODULE$);
      long summaryKo = e.getValue().get("ko").asLong();
      long summaryOk = e.getValue().get("count").asLong() - summaryKo;
      if (ok != summaryOk || ko != summaryKo) {
        throw new AssertionError(e.getKey() + ": rpc-summary.json has " + summaryOk + " OK / " + summaryKo
            + " KO, Gatling's simulation.log " + ok + " OK / " + ko + " KO");
      }
      compared++;
    }
    if (compared == 0) {
      throw new AssertionError("no request in rpc-summary.json to compare with simulation.log");
    }
    return log;
  }

  /**
   * The summary's outcome against Gatling's own judgement of its assertions (its validator on its reader of
   * simulation.log, as Gatling's runner does) and the process's exit status: every run that ended has one.
   */
  static void assertOutcomeAgrees(LogFileData log, JsonNode root, int exitCode) {
    String outcome = root.path("outcome").asText("");
    if (root.get("run").path("interrupted").asBoolean()) {
      assertEquals("interrupted", outcome, root.path("outcomeDetail").asText());
      return;
    }
    boolean anyFailed = scala.jdk.javaapi.CollectionConverters.asJava(
        new AssertionValidator(log).validateAssertions(log.assertions())).stream().anyMatch(r -> !r.success());
    String detail = outcome + ": " + root.path("outcomeDetail").asText() + " (exit status " + exitCode + ")";
    if (anyFailed) {
      assertTrue(outcome.equals("assertions-failed") || outcome.equals("crashed"), detail);
    } else {
      assertTrue(!outcome.isEmpty() && !outcome.equals("assertions-failed"), detail);
    }
    assertEquals(exitCode == 0, outcome.equals("ok"), detail);
  }

  /** {OK, KO} responses of {@code request} in the run's simulation.log, by Gatling's own reader. */
  static long[] simulationLogCounts(Path runFolder, String request) {
    LogFileData log = LogFileReader.apply(runFolder.getFileName().toString(), runFolder.getParent(),
        GatlingConfiguration.load()).read();
    return new long[] {count(log, request, OK$.MODULE$), count(log, request, KO$.MODULE$)};
  }

  private static long count(LogFileData log, String request, Status status) {
    Option<GeneralStats> stats = log.requestGeneralStats(Option.apply(request), Option.empty(), Option.apply(status));
    return stats.isDefined() ? stats.get().count() : 0;
  }

  /**
   * What a correct run guarantees for one level, however slow the machine: every client made at
   * least one call, no KO, and µs figures that hang together.
   */
  static void assertLevel(JsonNode requests, String name, int clients) {
    JsonNode r = requests.get(name);
    if (r == null) {
      throw new AssertionError(name + " missing from " + requests);
    }
    long count = r.get("count").asLong();
    assertEquals(0, r.get("ko").asLong(), name + " KOs: " + r.get("koReasons"));
    assertTrue(count >= clients, name + ": " + count + " calls from " + clients + " clients");
    long p50 = r.get("p50").asLong();
    long p99 = r.get("p99").asLong();
    long max = r.get("max").asLong();
    assertTrue(p50 >= 1 && p50 <= p99 && p99 <= max, name + " 1 <= p50 " + p50 + " <= p99 " + p99 + " <= max " + max);
    long windows = 0;
    for (JsonNode w : r.get("okPerSecond")) {
      windows += w.asLong();
    }
    assertEquals(count, windows, name + ": the 1-second windows add up to the count");
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
    return run(simulation, properties, resultsRoot, limit, Map.of());
  }

  /** The same with {@code environment} set in the run's process. */
  static Result run(String simulation, Map<String, String> properties, Path resultsRoot, Duration limit,
                    Map<String, String> environment) throws IOException, InterruptedException {
    return run(simulation, properties, resultsRoot, limit, environment, List.of());
  }

  /**
   * A run with C2, the JIT's full tiers, in the Gatling JVM and every JVM it starts: the ITs' JVMs compile with
   * C1 only (Failsafe's argLine), which a test about what the JIT does at a level's start cannot use.
   */
  static Result runWithFullJit(String simulation, Map<String, String> properties, Path resultsRoot, Duration limit)
      throws IOException, InterruptedException {
    // After this JVM's -XX:TieredStopAtLevel=1 on the command line: the last of a flag wins.
    return run(simulation, properties, resultsRoot, limit, Map.of(), List.of("-XX:TieredStopAtLevel=4"));
  }

  private static Result run(String simulation, Map<String, String> properties, Path resultsRoot, Duration limit,
                            Map<String, String> environment, List<String> jvmFlags)
      throws IOException, InterruptedException {
    Process p = start(simulation, properties, resultsRoot, environment, jvmFlags);
    Path log = log(resultsRoot);
    java.util.Set<ProcessHandle> children = new java.util.LinkedHashSet<>();
    long deadline = System.nanoTime() + limit.toNanos();
    while (!p.waitFor(250, TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(children::add); // servers, registries, plain drivers: none may outlive the run
      if (System.nanoTime() > deadline) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor();
        throw new AssertionError(simulation + " did not finish within " + limit + "; output in " + log);
      }
    }
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), resultsRoot,
        List.copyOf(children));
  }

  /** Where a run's console goes. */
  static Path log(Path resultsRoot) {
    return resultsRoot.resolveSibling(resultsRoot.getFileName() + ".log");
  }

  /** Starts a run without waiting for it; its console goes to {@link #log}. */
  static Process start(String simulation, Map<String, String> properties, Path resultsRoot) throws IOException {
    return start(simulation, properties, resultsRoot, Map.of());
  }

  /** The same with {@code environment} set in the run's process (e.g. a PATH without a tool). */
  static Process start(String simulation, Map<String, String> properties, Path resultsRoot,
                       Map<String, String> environment) throws IOException {
    return start(simulation, properties, resultsRoot, environment, List.of());
  }

  private static Process start(String simulation, Map<String, String> properties, Path resultsRoot,
                               Map<String, String> environment, List<String> jvmFlags) throws IOException {
    deleteRecursively(resultsRoot); // a run folder from an earlier build would be ambiguous
    Files.createDirectories(resultsRoot);
    List<String> jvmOptions = new ArrayList<>(jvmFlags);
    properties.forEach((k, v) -> jvmOptions.add("-D" + k + "=" + v));
    if (!properties.containsKey("settle")) {
      // The ITs' levels of a few seconds are measured from their first call unless a test is about the
      // settle (SettleIT): a settle would add 3 to 10 s to every level of CI.
      jvmOptions.add("-Dsettle=0");
    }
    if (simulation.equals("RpcShootout") && !properties.containsKey("repeat")) {
      // One trial per level unless a test is about trials (ShootoutTrialsIT): three would triple CI's shootouts.
      jvmOptions.add("-Drepeat=1");
    }
    // Gatling's logback, as in a user's run: in a reactor build the servers' jars are on this class
    // path, and their manifests bring slf4j-simple along.
    jvmOptions.add("-Dslf4j.provider=" + System.getProperty("slf4j.provider"));
    // As the Maven plugin does with the pom's gatling.runDescription: Gatling's report points to the µs page.
    List<String> command = JvmCommand.of(jvmOptions, "io.gatling.app.Gatling",
        List.of("-s", "simulations." + simulation, "-rf", resultsRoot.toString(), "-rd",
            System.getProperty("gatling.runDescription", "")));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log(resultsRoot).toFile());
    builder.environment().putAll(environment);
    return builder.start();
  }
}
