package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.netty.lab.NettyFramework;
import protocols.stats.CpuSampler;

class CpuPinningTest {
  @Test
  void trueSplitsTheCoresInHalvesAndFalsePinsNothing() {
    assertEquals(Optional.empty(), CpuPinning.of("false", 2, true));
    assertEquals(new CpuPinning("0", "1"), CpuPinning.of("true", 2, true).orElseThrow());
    assertEquals(new CpuPinning("0-1", "2-3"), CpuPinning.of("true", 4, true).orElseThrow());
    assertEquals(new CpuPinning("0", "1-2"), CpuPinning.of("true", 3, true).orElseThrow());
    assertEquals(new CpuPinning("0,2", "1,3"), CpuPinning.of("0,2/1,3", 4, true).orElseThrow());
    assertEquals(new CpuPinning("0", "1"), CpuPinning.of("auto", 2, true).orElseThrow());
    assertEquals(Optional.empty(), CpuPinning.of("auto", 2, false), "auto without taskset: no pinning, no error");
    assertEquals(Optional.empty(), CpuPinning.of("auto", 1, true));
  }

  @Test
  void aListThatCannotBeHonouredIsOneLine() {
    assertEquals("-Dcpus gives CPU 1 to both the injector and the servers; the two sets must not overlap: '0-1/1'",
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.of("0-1/1", 2, true)).getMessage());
    assertEquals("-Dcpus names CPU 2, and this machine's are 0 to 1: '0/2'",
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.of("0/2", 2, true)).getMessage());
    for (String bad : List.of("0", "a/b", "1-0/2", "0//1", "0/1/2")) {
      assertTrue(assertThrows(IllegalArgumentException.class, () -> CpuPinning.of(bad, 4, true)).getMessage()
          .startsWith("-Dcpus must be true, false, auto or <injector CPUs>/<server CPUs>"), bad);
    }
    assertEquals("-Dcpus pins with Linux's taskset (util-linux), which is not on the PATH; leave -Dcpus out",
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.of("true", 2, false)).getMessage());
    assertEquals("-Dcpus needs two cores or more to split, and this machine has 1",
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.of("true", 1, true)).getMessage());
  }

  /** A server started behind the launcher runs where it says, as the kernel reads it back. */
  @Test
  void aServerStartsOnTheServersCpus() {
    assumeTrue(CpuSampler.machineCores() >= 2 && OwnedProcess.onPath("taskset"), "Linux with taskset and 2 cores");
    CpuPinning pinning = CpuPinning.of("0/1", CpuSampler.machineCores(), true).orElseThrow();
    try (EmbeddedServer server = EmbeddedServer.start("netty", NettyFramework.FRAMEWORK.serverMainClass(), List.of(),
        pinning.serverLauncher())) {
      assertEquals(java.util.Set.of("1"), server.pids().stream().map(pid -> CpuPinning.allowed(pid).orElseThrow())
          .collect(java.util.stream.Collectors.toSet()));
    }
  }
}
