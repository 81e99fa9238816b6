package protocols.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where the CPU went, read from this machine's /proc while a child process burns CPU and is killed. */
class CpuSamplerTest {

  @Test
  void aServerKilledBetweenTwoSamplesCountsAsTheServersNotAsOtherWork() throws Exception {
    Process busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start(); // a server burning CPU
    try {
      Thread.sleep(300);
      CpuSampler.Sample a = CpuSampler.read().orElseThrow();
      Thread.sleep(1_000);
      long burnt = busy.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElseThrow()
          - a.serverNanos().get(busy.pid());
      busy.destroyForcibly().waitFor(); // killed, as by a fault, and waited for, as the JDK does
      CpuSampler.Sample b = CpuSampler.read().orElseThrow();
      int cores = CpuSampler.machineCores();
      CpuSampler.Shares shares = CpuSampler.shares(a, b, cores);
      double serversNanos = shares.servers() * (b.nanos() - a.nanos()) * cores;
      assertTrue(burnt > 100_000_000L, "the child burnt " + burnt / 1e6 + " ms of CPU");
      assertTrue(serversNanos >= 0.9 * burnt, "the killed server's " + burnt / 1e6 + " ms of CPU, counted as the"
          + " servers': " + serversNanos / 1e6 + " ms (the rest of the machine: " + shares.rest() + ")");
    } finally {
      busy.destroyForcibly();
    }
  }

  @Test
  void aJvmLimitedToFewerCoresThanTheMachineHasDoesNotMeasureShares() {
    assertEquals(Optional.empty(), CpuSampler.notMeasurable(2, 2));
    assertTrue(CpuSampler.notMeasurable(16, 2).orElseThrow().startsWith("this JVM may use 2 of the machine's 16"
        + " cores"));
    assertTrue(CpuSampler.notMeasurable(0, 2).isPresent(), "no /proc/stat");
  }

  @Test
  void theValidityBoxSaysWhatWasNotChecked() {
    LatencyRecorder r = new LatencyRecorder();
    for (int i = 0; i < 5_000; i++) {
      long start = i * 1_000_000L;
      r.record("echo 1 clients (async)", start, start + 100_000, true);
    }
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of())
        .withCpuNotSampledBecause("no /proc/stat to read the machine's CPU time from (Linux only)");
    assertEquals(List.of(), a.warnings());
    String page = RpcReportPage.render("t", r.snapshot(), a, java.util.Map.of(), false);
    assertTrue(page.contains("id=\"not-checked\""), "the page says other work was not checked");
    assertTrue(page.contains("(Linux only)"), "and why");
    assertTrue(!page.contains("no other work on the machine above the threshold"), "nor claims it was");
  }
}
