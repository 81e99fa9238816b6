package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each stream kind on gRPC and on Dubbo's Triple through the DSL, against the real sample servers: one Gatling record per
 * stream, and per-message figures that agree with it (every OK stream sent and read what its kind promises).
 */
class StreamingIT {
  private static final Path RESULTS = Paths.get("target", "it-results");
  private static final int MESSAGES = 200;

  @Test
  void everyStreamKindRunsAndItsMessagesAgreeWithGatlingsRecords() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("StreamingDemo",
        Map.of("duration", "2", "streams", "3", "messages", Integer.toString(MESSAGES)),
        RESULTS.resolve("streaming"), Duration.ofMinutes(3));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode requests = summary.get("requests");
    JsonNode streams = summary.get("streams");
    assertNotNull(streams, "no streams in rpc-summary.json");
    // {sent, received} per stream of each kind
    Map<String, long[]> perStream = Map.of("grpc watch", new long[] {1, MESSAGES},
        "grpc upload", new long[] {MESSAGES, 1}, "grpc chat", new long[] {MESSAGES, MESSAGES},
        "triple watch", new long[] {1, MESSAGES}, "triple upload", new long[] {MESSAGES, 1},
        "triple chat", new long[] {MESSAGES, MESSAGES});
    for (Map.Entry<String, long[]> kind : perStream.entrySet()) {
      String name = kind.getKey();
      JsonNode r = requests.get(name);
      assertNotNull(r, name + " never ran: " + requests);
      assertEquals(0, r.get("ko").asLong(), name + ": " + r);
      long ok = GatlingProcess.simulationLogCounts(run.runFolder(), name)[0];
      assertTrue(ok >= 3, name + ": each of the 3 users completes a stream, got " + ok);
      JsonNode s = streams.get(name);
      assertNotNull(s, name + " has no stream figures: " + streams);
      assertEquals(ok, s.get("streams").asLong() - s.get("failedStreams").asLong(), name + ": OK streams vs Gatling's records");
      assertEquals(ok * kind.getValue()[0], s.get("messagesSent").asLong(), name + " sent");
      assertEquals(ok * kind.getValue()[1], s.get("messagesReceived").asLong(), name + " received");
      assertTrue(s.get("firstMessageP50").asLong() > 0, name + ": " + s);
    }
    for (String chat : List.of("grpc chat", "triple chat")) {
      assertEquals(requests.get(chat).get("count").asLong() * MESSAGES, streams.get(chat).get("roundTrips").asLong(),
          chat + ": a round trip per message");
      assertTrue(streams.get(chat).get("roundTripP99").asLong() > 0, chat + ": " + streams.get(chat));
    }
    String page = Files.readString(run.runFolder().resolve("rpc-report.html"));
    for (String name : perStream.keySet()) {
      assertTrue(page.contains("<tr data-stream=\"" + name + "\"><td class=\"n\">" + name + "</td><td class=\"streams\">"
          + streams.get(name).get("streams").asLong() + "</td>"), name + "'s row on the µs page");
    }
  }

  /** Two trials of each level in rounds of both frameworks: each trial its own figures, the level its medians and pairs. */
  @Test
  void theStreamingShootoutRunsEachLevelOnBothFrameworksInRoundsAtAPacedRate() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("StreamShootout",
        Map.of("duration", "2", "streams", "1,5", "messages", "50", "messageRate", "500", "warmup", "1",
            "repeat", "2", "seed", "5"),
        RESULTS.resolve("stream-shootout"), Duration.ofMinutes(4));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("trials: 2 of each level, in rounds of every framework shuffled with -Dseed=5"),
        run.output());
    JsonNode streams = run.summary().get("streams");
    List<String> warmups = new java.util.ArrayList<>();
    run.summary().get("run").get("warmups").forEach(w -> warmups.add(w.get("request").asText()));
    assertEquals(List.of("grpc warm-up (async)", "triple warm-up (async)"), warmups, "a warm-up before each framework");
    for (String level : List.of("grpc chat 1 stream at 500 msg/s", "grpc chat 5 streams at 500 msg/s",
        "triple chat 1 stream at 500 msg/s", "triple chat 5 streams at 500 msg/s")) {
      for (int trial = 1; trial <= 2; trial++) {
        String name = level + " trial " + trial;
        JsonNode s = streams.get(name);
        assertNotNull(s, name + " has no stream figures: " + streams);
        assertEquals(trial, s.get("level").get("trial").asInt(), name + ": its level");
        long ok = GatlingProcess.simulationLogCounts(run.runFolder(), name)[0];
        assertEquals(ok, s.get("streams").asLong() - s.get("failedStreams").asLong(), name + ": OK streams vs Gatling's records");
        assertEquals(ok * 50, s.get("roundTrips").asLong(), name + ": a round trip per message");
        assertEquals(ok * 50, s.get("pacedSends").asLong(), name + ": every message sent on its schedule");
        // 50 messages at 500/s take 98 ms at least: a user of a 2-s level opens 21 streams at most.
        assertTrue(ok <= 21L * (name.contains(" 1 stream") ? 1 : 5), name + ": " + ok + " streams, faster than the pace");
        assertEquals(0, run.summary().get("requests").get(name).get("ko").asLong(), name);
      }
    }
    JsonNode trials = run.summary().get("streamTrials");
    assertNotNull(trials, "the levels over their trials");
    List<String> levels = new java.util.ArrayList<>();
    trials.get("levels").forEach(l -> {
      levels.add(l.get("name").asText());
      assertEquals(2, l.get("trials").asInt(), l.toString());
      JsonNode received = l.get("receivedPerSecond");
      assertTrue(received.get("lo").asDouble() <= received.get("mid").asDouble()
          && received.get("mid").asDouble() <= received.get("hi").asDouble(), "the median within its interval: " + l);
    });
    assertEquals(Set.of("grpc chat 1 stream at 500 msg/s", "triple chat 1 stream at 500 msg/s",
        "grpc chat 5 streams at 500 msg/s", "triple chat 5 streams at 500 msg/s"), Set.copyOf(levels));
    assertEquals(2, trials.get("pairs").size(), "triple against grpc at each level: " + trials.get("pairs"));
    trials.get("pairs").forEach(p -> {
      assertTrue(p.get("receivedRatio").get("lo").asDouble() > 0, p.toString());
      assertTrue(Set.of("faster", "slower", "no difference shown").contains(p.get("receivedVerdict").asText()),
          p.toString());
    });
    String page = Files.readString(run.runFolder().resolve("rpc-report.html"));
    assertTrue(page.contains("<table id=\"stream-trials\">") && page.contains("<table id=\"stream-pairs\">"),
        "the page's tables over trials");
    assertTrue(run.output().contains("Stream pairs: candidate / baseline"), "and the console's");
  }
}
