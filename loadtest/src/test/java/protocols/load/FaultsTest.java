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
