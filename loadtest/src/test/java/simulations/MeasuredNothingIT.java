package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.EmbeddedServer;
import servers.thrift.ThriftEchoServer;

/** A run that measured nothing, or mostly KOs, fails: a non-zero exit and a line that says why. */
class MeasuredNothingIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "measured-nothing");

  @Test
  void aServerOfAnotherFrameworkFailsTheRunBeforeItsFirstLevel() throws Exception {
    try (EmbeddedServer thrift = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of())) {
      long t0 = System.nanoTime();
      GatlingProcess.Result run = GatlingProcess.run("DubboEcho",
          Map.of("target", thrift.address().toString(), "levels", "1", "duration", "30"), RESULTS.resolve("wrong"),
          Duration.ofSeconds(90));
      long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
      assertEquals(1, run.exitCode(), run.output());
      String expected = "error: the server at " + thrift.address() + " (-Dtarget) does not answer a dubbo echo call";
      assertEquals(1, run.output().lines().filter(l -> l.startsWith(expected)).count(), run.output());
      assertFalse(run.output().lines().anyMatch(l -> l.trim().startsWith("at ")), "no stack trace:\n" + run.output());
      assertTrue(seconds < 60, "failed within " + seconds + " s, not after the 30 s level");
      assertTrue(thrift.isAlive());
    }
  }

  @Test
  void aLevelWithMoreKoThanMaxKoPercentFailsTheRunThroughGatlingsAssertions() throws Exception {
    // A 1 ms timeout at 50 clients: a share of the calls cannot make it on any machine.
    GatlingProcess.Result run = GatlingProcess.run("ThriftEcho",
        Map.of("levels", "50", "duration", "3", "warmup", "0", "timeout", "1", "maxKoPercent", "1"),
        RESULTS.resolve("ko"), Duration.ofMinutes(2));
    assertEquals(2, run.exitCode(), "Gatling's exit status for a failed assertion:\n" + run.output());
    var level = run.summary().get("requests").get("echo 50 clients (async)"); // reports are still written
    assertTrue(level.get("ko").asLong() * 100 > level.get("count").asLong(), level.toString());
    assertTrue(run.output().lines().anyMatch(l -> l.contains("echo 50 clients (async)") && l.contains("false")),
        "Gatling names the failed assertion:\n" + run.output());
  }
}
