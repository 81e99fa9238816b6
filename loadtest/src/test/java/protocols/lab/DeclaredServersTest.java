package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.stats.CpuSampler;

/** -DserverPids: a provider the run did not start, counted with the servers. */
class DeclaredServersTest {

  /** A process burning CPU that is not this JVM's descendant (its parent exited), as a provider started by hand. */
  private static long startedByHand(Path pidFile) throws Exception {
    Process sh = new ProcessBuilder("sh", "-c", "(while :; do :; done) > /dev/null 2>&1 & echo $! > " + pidFile).start();
    assertTrue(sh.waitFor(10, TimeUnit.SECONDS));
    return Long.parseLong(Files.readString(pidFile).trim());
  }

  @Test
  void aDeclaredProcessCountsWithTheServers(@TempDir Path dir) throws Exception {
    Path pidFile = dir.resolve("provider.pid");
    long pid = startedByHand(pidFile);
    try {
      assertFalse(ProcessHandle.current().descendants().anyMatch(p -> p.pid() == pid), "not a child of this JVM");
      Set<Long> declared = DeclaredServers.of(new LoadParams(Map.of("serverPids", pidFile.toString())));
      assertEquals(Set.of(pid), declared);
      assertEquals(declared, DeclaredServers.of(new LoadParams(Map.of("serverPids", " " + pid + " ,"))));
      CpuSampler sampler = CpuSampler.start(declared).orElseThrow();
      try {
        Thread.sleep(2_500);
        CpuSampler.Shares s = sampler.between(0, System.nanoTime()).orElseThrow();
        assertTrue(s.servers() * s.cores() > 0.1, "the provider's busy loop counts as the servers': " + s);
      } finally {
        sampler.close();
      }
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aProcessThatIsNotRunningOrAFileThatIsNoPidFileIsOneLine(@TempDir Path dir) throws Exception {
    IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
        () -> DeclaredServers.of(new LoadParams(Map.of("serverPids", "999999999"))));
    assertEquals("-DserverPids: no process 999999999 is running on this machine", gone.getMessage());
    Path notPids = Files.writeString(dir.resolve("not.pid"), "provider");
    IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
        () -> DeclaredServers.of(new LoadParams(Map.of("serverPids", notPids.toString()))));
    assertEquals("-DserverPids: the PID file " + notPids + " holds 'provider', not a process id", text.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> DeclaredServers.of(new LoadParams(Map.of("serverPids", "/no/such.pid"))));
    assertTrue(missing.getMessage().startsWith("-DserverPids: '/no/such.pid' is neither a process id nor a PID file"),
        missing.getMessage());
    assertEquals(Set.of(), DeclaredServers.of(new LoadParams(Map.of())));
  }
}
