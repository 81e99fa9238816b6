package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.stats.CpuSampler;
import protocols.stats.Summaries;
import protocols.stats.Validity;

/**
 * -Dcpus=0/1: the kernel reads the Gatling JVM back on CPU 0 and the server on CPU 1, and the level's
 * CPU shares are still measured (the JVM's one core is the lab's own pinning, not a limit from outside).
 */
class CpuPinningIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "cpus");

  @Test
  void theInjectorAndTheServerRunOnTheirOwnCpus() throws Exception {
    assumeTrue(CpuSampler.machineCores() >= 2, "two cores or more");
    GatlingProcess.Result run = GatlingProcess.run("GrpcEcho", Map.of("levels", "5", "duration", "3", "warmup", "2",
        "cpus", "0/1"), RESULTS, Duration.ofMinutes(3));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("injector on CPUs 0, servers on CPUs 1 (taskset); the kernel allows the injector 0,"
        + " the servers [1]"), run.output());
    Summaries.Summary summary = Summaries.read(run.runFolder().resolve(Summaries.FILE));
    Validity validity = summary.validity().values().iterator().next();
    assertNotNull(validity.cpuInjector(), summary.validity().toString());
    assertTrue(validity.cpuInjector() > 0 && validity.cpuServers() > 0, summary.validity().toString());
  }
}
