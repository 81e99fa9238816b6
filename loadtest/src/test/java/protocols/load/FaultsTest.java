package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import protocols.stats.RunInfo;
import java.util.Map;
import org.junit.jupiter.api.Test;
import servers.netty.NettyEchoServer;
import protocols.lab.EmbeddedServer;
import protocols.lab.TestProcesses;

/** Faults against a real echo server: none outlives the run that owns the server. */
class FaultsTest {

  @Test
  void aServerStoppedByItsRunIsNeverRestartedByALaterFault() {
    EmbeddedServer server = EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of());
    server.close();
    assertThrows(IllegalStateException.class, server::restart);
    assertEquals(0, liveServers(), "a restart after stop started a server nobody owns");
  }

  @Test
  void stoppingTheRunCancelsTheFaultsStillToCome() throws Exception {
    EmbeddedServer server = EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of());
    FaultWindows windows = new FaultWindows();
    Faults faults = new Faults(Faults.parse("kill@200ms,restart@900ms"), server, true, windows);
    faults.startAt("cancelled level", System.nanoTime());
    Thread.sleep(500); // the kill has happened, the restart is still to come
    faults.cancel();
    server.close();
    Thread.sleep(1_000);
    assertEquals(0, liveServers(), "the restart fired after the run stopped");
    RunInfo.FaultOutcome outcome = windows.outcomes().stream().filter(o -> o.request().equals("cancelled level"))
        .findFirst().orElseThrow();
    assertEquals(1, outcome.events().size(), "only the kill was done: " + outcome);
  }

  /** A call still in flight when the server stalls is the fault's: the window opens before the first fault. */
  @Test
  void aCallInFlightWhenTheFaultHitsIsCountedWithTheFault() {
    Faults.FaultTarget nothing = new Faults.FaultTarget() {
      @Override
      public void kill() {
      }

      @Override
      public void restart() {
      }

      @Override
      public void signal(String name) {
      }
    };
    FaultWindows windows = new FaultWindows();
    Faults faults = new Faults(Faults.parse("stop@10s,cont@12s"), nothing, true, windows);
    long start = System.nanoTime();
    faults.startAt("stalled level", start);
    long stop = start + 10_000_000_000L;
    assertTrue(windows.apart("stalled level", stop - 100_000_000L), "started 100 ms before the stall: in flight at it");
    assertFalse(windows.apart("stalled level", stop - 2_000_000_000L), "2 s before: the level's own");
    faults.cancel();
  }

  /** A restart is a JVM's start: its level goes on until the server is back and the recovery bound has passed. */
  @Test
  void aLevelGoesOnUntilItsServerIsBackAndItsRecoveryCouldBeSeen() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean failRestart = new java.util.concurrent.atomic.AtomicBoolean();
    Faults.FaultTarget slow = new Faults.FaultTarget() {
      @Override
      public void kill() {
      }

      @Override
      public void restart() {
        try {
          Thread.sleep(800);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (failRestart.get()) {
          throw new IllegalStateException("did not start");
        }
      }

      @Override
      public void signal(String name) {
      }
    };
    FaultWindows windows = new FaultWindows();
    Faults faults = new Faults(Faults.parse("kill@100ms,restart@200ms"), slow, true, windows);
    faults.startAt("slow restart", System.nanoTime());
    assertTrue(faults.recoveryPending("slow restart"), "before its faults");
    Thread.sleep(600);
    assertTrue(faults.recoveryPending("slow restart"), "while the server restarts");
    awaitEvents(windows, "slow restart", 2);
    long back = System.nanoTime();
    assertTrue(faults.recoveryPending("slow restart"), "just back");
    assertTrue(windows.recoveryPending("slow restart", back + Faults.RECOVERY_BOUND.toNanos() - 100_000_000L));
    assertFalse(windows.recoveryPending("slow restart", back + Faults.RECOVERY_BOUND.toNanos()), "the bound passed");
    faults.cancel();

    failRestart.set(true);
    Faults failing = new Faults(Faults.parse("kill@100ms,restart@200ms"), slow, true, windows);
    failing.startAt("failed restart", System.nanoTime());
    awaitEvents(windows, "failed restart", 2);
    assertFalse(failing.recoveryPending("failed restart"), "a restart that failed ends the wait");
    failing.cancel();

    Faults killOnly = new Faults(Faults.parse("kill@100ms"), slow, true, windows);
    killOnly.startAt("killed", System.nanoTime());
    assertFalse(killOnly.recoveryPending("killed"), "nothing to recover from: the level ends on time");
    killOnly.cancel();
    assertFalse(faults.recoveryPending("another level"));
  }

  private static void awaitEvents(FaultWindows windows, String request, int events) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (windows.outcomes().stream().noneMatch(o -> o.request().equals(request) && o.events().size() >= events)) {
      assertTrue(System.nanoTime() < deadline, request + ": its faults were not done within 10 s");
      Thread.sleep(20);
    }
  }

  @Test
  void aStepNamesEveryProviderOneProviderOrTheRegistry() {
    List<Faults.Step> steps = Faults.parse("kill@1s,kill@2s:provider=2,restart@3s:provider=2,kill@4s:registry");
    assertEquals(List.of(Faults.On.PROVIDERS, new Faults.On(2, false), new Faults.On(2, false), Faults.On.REGISTRY),
        steps.stream().map(Faults.Step::on).toList());
    assertEquals(List.of("kill", "kill provider 2", "restart provider 2", "kill registry"),
        steps.stream().map(Faults.Step::label).toList());
    assertThrows(IllegalArgumentException.class, () -> Faults.parse("kill@1s:provider=0"));
    assertThrows(IllegalArgumentException.class, () -> Faults.parse("stop@1s:registry"));
    assertThrows(IllegalArgumentException.class, () -> Faults.parse("kill@1s:node=1"));
  }

  private static long liveServers() {
    return TestProcesses.under(ProcessHandle.current(), NettyEchoServer.class.getName()).size();
  }
}
