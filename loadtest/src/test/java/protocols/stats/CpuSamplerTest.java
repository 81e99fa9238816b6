package protocols.stats;

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
  void busyMachineSharesAreComputedFromSamples() {
    // 2 s on 2 cores: 4 core-seconds; 100 ticks/s: 400 ticks in all, 40 idle; injector 1.6 s, servers 1.2 s.
    CpuSampler.Sample a = new CpuSampler.Sample(0, 1000, 500, 0, 0, 0);
    CpuSampler.Sample b = new CpuSampler.Sample(2_000_000_000L, 1400, 540, 0, 1_600_000_000L, 1_200_000_000L);
    CpuSampler.Shares s = CpuSampler.shares(a, b, 2);
    assertEquals(0.4, s.injector(), 1e-9);
    assertEquals(0.3, s.servers(), 1e-9);
    assertEquals(0.1, s.idle(), 1e-9);
    assertEquals(0.2, s.rest(), 1e-9, "busy 90% less injector and servers");
  }

  /** A level is charged with its own server only: another framework's idle server is apart, not the rest. */
  @Test
  void aLevelIsChargedOnlyWithItsOwnServers() {
    // Server 7 (this level's) 1.0 s, server 9 (another framework's, idle but for GC and JIT) 0.2 s.
    CpuSampler.Sample a = new CpuSampler.Sample(0, 1000, 500, 0, 0, java.util.Map.of(7L, 0L, 9L, 0L), 0);
    CpuSampler.Sample b = new CpuSampler.Sample(2_000_000_000L, 1400, 540, 0, 1_600_000_000L,
        java.util.Map.of(7L, 1_000_000_000L, 9L, 200_000_000L), 0);
    CpuSampler.Shares own = CpuSampler.shares(a, b, 2, pid -> pid == 7L);
    assertEquals(0.25, own.servers(), 1e-9);
    assertEquals(0.05, own.otherServers(), 1e-9);
    assertEquals(0.2, own.rest(), 1e-9, "the other server is not other work on the machine");
    assertEquals(0.25 * 2, own.serverCores(), 1e-9, "server CPU per call counts the level's own server only");
    CpuSampler.Shares all = CpuSampler.shares(a, b, 2);
    assertEquals(0.3, all.servers(), 1e-9);
    assertEquals(0, all.otherServers(), 1e-9);
  }
}
