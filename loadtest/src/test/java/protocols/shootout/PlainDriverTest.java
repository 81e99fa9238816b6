package protocols.shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.lab.EmbeddedServer;
import protocols.rpc.InvocationMode;
import protocols.lab.LoadParams;
import protocols.stats.Level;
import servers.netty.NettyEchoServer;
import protocols.netty.lab.NettyFramework;

/** The plain driver runs the load the shootout's Gatling part runs: the same settings, the same warm-up. */
class PlainDriverTest {

  @Test
  void everyLoadSettingReachesThePlainDriverOrIsNotItsToTake() {
    for (String setting : LoadParams.LOAD_SETTINGS) {
      assertTrue(Shootout.PASSED_TO_PLAIN.contains(setting) || Shootout.NOT_FOR_PLAIN.contains(setting),
          "-D" + setting + " is neither passed to the plain driver nor said not to be its");
    }
  }

  @Test
  void itsWarmUpKeepsItsUsersCallingUntilItEnds(@TempDir Path dir) throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of())) {
      Path out = dir.resolve("plain.json");
      LoadParams params = new LoadParams(Map.of("levels", "3", "duration", "1", "warmup", "auto", "warmupMax", "4"));
      int code = PlainDriver.run(NettyFramework.FRAMEWORK, params, InvocationMode.ASYNC, server.address(), out);
      JsonNode run = new ObjectMapper().readTree(out.toFile()).get("run");
      assertEquals(0, code, run.toString());
      JsonNode warmup = run.get("warmup");
      assertEquals(3, warmup.get("users").asInt());
      assertEquals(3, warmup.get("usersStarted").asInt(), "started once, not once a second: " + warmup);
      assertTrue(warmup.get("seconds").asDouble() <= 4 + 1.5, "within its 4 s bound: " + warmup);
      assertTrue(warmup.has("stable"), warmup.toString());
    }
  }
  /** -Drepeat=2: each level measured twice, each trial under its own name with its own CPU per call. */
  @Test
  void itMeasuresEachLevelOncePerTrial(@TempDir Path dir) throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of())) {
      Path out = dir.resolve("plain.json");
      LoadParams params = new LoadParams(Map.of("levels", "1,2", "duration", "1", "warmup", "0", "settle", "0",
          "repeat", "2"));
      int code = PlainDriver.run(NettyFramework.FRAMEWORK, params, InvocationMode.ASYNC, server.address(), out);
      JsonNode summary = new ObjectMapper().readTree(out.toFile());
      assertEquals(0, code, summary.get("run").toString());
      for (int clients : List.of(1, 2)) {
        for (int trial : List.of(1, 2)) {
          String name = Level.closed(null, clients, InvocationMode.ASYNC).trial(trial).name();
          assertTrue(summary.get("requests").path(name).path("count").asLong() > 0, name + ": " + summary);
          assertTrue(summary.get("run").get("cpuMicrosPerCall").has(name), name);
        }
      }
      assertEquals(4, summary.get("requests").size(), "the trials only: " + summary.get("requests").fieldNames());
    }
  }
}
