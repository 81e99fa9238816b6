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

  @Test
  void theStreamingShootoutRunsEachLevelOnBothFrameworksInOneCommandAtAPacedRate() throws Exception {
    GatlingProcess.Result run = GatlingProcess.run("StreamShootout",
        Map.of("duration", "2", "streams", "1,5", "messages", "50", "messageRate", "500", "warmup", "1"),
        RESULTS.resolve("stream-shootout"), Duration.ofMinutes(3));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode streams = run.summary().get("streams");
    List<String> warmups = new java.util.ArrayList<>();
    run.summary().get("run").get("warmups").forEach(w -> warmups.add(w.get("request").asText()));
    assertEquals(List.of("grpc warm-up (async)", "triple warm-up (async)"), warmups, "a warm-up before each framework");
    for (String name : List.of("grpc chat 1 stream at 500 msg/s", "grpc chat 5 streams at 500 msg/s",
        "triple chat 1 stream at 500 msg/s", "triple chat 5 streams at 500 msg/s")) {
      JsonNode s = streams.get(name);
      assertNotNull(s, name + " has no stream figures: " + streams);
      long ok = GatlingProcess.simulationLogCounts(run.runFolder(), name)[0];
      assertEquals(ok, s.get("streams").asLong() - s.get("failedStreams").asLong(), name + ": OK streams vs Gatling's records");
      assertEquals(ok * 50, s.get("roundTrips").asLong(), name + ": a round trip per message");
      assertEquals(ok * 50, s.get("pacedSends").asLong(), name + ": every message sent on its schedule");
      // 50 messages at 500/s take 98 ms at least: a user of a 2-s level opens 21 streams at most.
      assertTrue(ok <= 21L * (name.contains(" 1 stream") ? 1 : 5), name + ": " + ok + " streams, faster than the pace");
      assertEquals(0, run.summary().get("requests").get(name).get("ko").asLong(), name);
    }
  }
}
