package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.frameworks.Frameworks;
import protocols.lab.RpcFramework;
import protocols.lab.EchoRun;
import protocols.lab.EmbeddedServer;
import protocols.lab.LoadParams;
import servers.netty.NettyEchoServer;
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
      assertTrue(run.output().lines().anyMatch(l -> l.startsWith("RESULT: not-started: the server at " + thrift.address())),
          "a CI reads why from one line:\n" + run.output());
      assertTrue(seconds < 60, "failed within " + seconds + " s, not after the 30 s level");
      assertTrue(thrift.isAlive());
    }
  }

  @Test
  void everyFrameworksFirstCallFailsOnAServerOfAnotherFramework() throws Exception {
    // Each client against the next framework's server: every one must tell it is not its echo.
    List<String> names = Frameworks.names();
    LoadParams params = new LoadParams(Map.of());
    for (int i = 0; i < names.size(); i++) {
      RpcFramework<?, ?> client = Frameworks.byName(names.get(i));
      RpcFramework<?, ?> other = Frameworks.byName(names.get((i + 1) % names.size()));
      try (EmbeddedServer server = EmbeddedServer.start(other.name(), other.serverMainClass(), other.serverArgs(params))) {
        long t0 = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> EchoRun.probe(client, params, server.address(), "-Dtarget"), client.name() + " on " + other.name());
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(e.getMessage().startsWith("the server at " + server.address() + " (-Dtarget) does not answer a "
            + client.name() + " echo call: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(millis < 15_000, client.name() + " on " + other.name() + ": " + millis + " ms");
        assertTrue(server.isAlive(), other.name() + " survived a " + client.name() + " client");
      }
    }
  }

  @Test
  void aServerThatDiesMidRunGivesABoundedNumberOfKoAndStopsTheRun() throws Exception {
    // Not an injected fault: a -Dtarget server that dies, as a user's would.
    EmbeddedServer netty = EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of());
    Path log = RESULTS.resolve("dies.log"); // GatlingProcess's output file
    Thread killer = new Thread(() -> {
      try {
        // Once Gatling's console shows the level's calls (its first 5-second summary), kill the server.
        for (int i = 0; i < 600; i++) {
          Thread.sleep(100);
          if (Files.exists(log) && Files.readString(log).contains("> echo 10 clients (async)")) {
            break;
          }
        }
      } catch (InterruptedException | java.io.IOException e) {
        return;
      }
      netty.kill();
    });
    GatlingProcess.Result run;
    try {
      Files.deleteIfExists(log); // an earlier run's output would trigger the kill at once
      killer.start();
      run = GatlingProcess.run("NettyEcho", Map.of("target", netty.address().toString(), "levels", "10",
          "duration", "60", "warmup", "0", "maxFailingSeconds", "5"), RESULTS.resolve("dies"), Duration.ofSeconds(90));
    } finally {
      killer.interrupt();
      netty.close();
    }
    assertNotEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("every call failed for 5 s (-DmaxFailingSeconds)"), run.output());
    JsonNode level = run.summary().get("requests").get("echo 10 clients (async)");
    long ko = level.get("ko").asLong();
    // 10 users, each pausing 100 ms after a failed call, for about 5 s: some 500 KO, not millions.
    assertTrue(ko > 0 && ko <= 10 * 10 * 15, "KO " + ko + " over " + level.get("durationSeconds") + " s");
    assertTrue(level.get("durationSeconds").asDouble() < 50, "stopped early: " + level.get("durationSeconds") + " s");
  }

  @Test
  void aLevelWithMoreKoThanMaxKoPercentFailsTheRunThroughGatlingsAssertions() throws Exception {
    // A 1 ms deadline at 50 clients: a share of the calls cannot make it on any machine. gRPC, because
    // its client connects without a deadline of its own (Thrift's and Ice's connect within the timeout).
    GatlingProcess.Result run = GatlingProcess.run("GrpcEcho",
        Map.of("levels", "50", "duration", "3", "warmup", "0", "timeout", "1", "maxKoPercent", "1"),
        RESULTS.resolve("ko"), Duration.ofMinutes(2));
    assertEquals(2, run.exitCode(), "Gatling's exit status for a failed assertion:\n" + run.output());
    var level = run.summary().get("requests").get("echo 50 clients (async)"); // reports are still written
    assertTrue(level.get("ko").asLong() * 100 > level.get("count").asLong(), level.toString());
    assertTrue(run.output().lines().anyMatch(l -> l.contains("echo 50 clients (async)") && l.contains("false")),
        "Gatling names the failed assertion:\n" + run.output());
    // Maven folds Gatling's 2 into 1: the outcome says which failure it was, last on the console and in the summary.
    String last = run.output().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
    assertTrue(last.startsWith("RESULT: assertions-failed: assertions failed (1 of 1): echo 50 clients (async): "),
        last);
    assertEquals("assertions-failed", run.summary().get("outcome").asText());
  }
}
