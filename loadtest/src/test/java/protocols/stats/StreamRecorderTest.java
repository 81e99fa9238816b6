package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import protocols.rpc.StreamResult;

class StreamRecorderTest {

  private static StreamResult chat(int messages, long roundTripMicros) {
    Histogram gaps = StreamResult.histogram();
    Histogram rtt = StreamResult.histogram();
    for (int i = 0; i < messages; i++) {
      rtt.recordValue(roundTripMicros);
      if (i > 0) {
        gaps.recordValue(10);
      }
    }
    return new StreamResult(messages, messages, 500, gaps, rtt, StreamResult.histogram());
  }

  @Test
  void streamsOfOneNameAddUpAndTheirRatesSpanFirstStartToLastEnd() {
    StreamRecorder r = new StreamRecorder();
    r.record("chat", 0, 1_000_000_000L, chat(100, 200));
    r.record("chat", 1_000_000_000L, 2_000_000_000L, chat(100, 4_000));
    r.record("watch", 0, 500_000_000L, new StreamResult(1, 50, 700, StreamResult.histogram(),
        StreamResult.histogram(), StreamResult.histogram()));
    List<StreamStats> all = r.snapshot();
    assertEquals(List.of("chat", "watch"), all.stream().map(StreamStats::name).toList());
    StreamStats chat = all.get(0);
    assertEquals(2, chat.streams());
    assertEquals(200, chat.messagesSent());
    assertEquals(200, chat.messagesReceived());
    assertEquals(100.0, chat.sentPerSecond(), 1e-9); // 200 messages over 2 s
    assertEquals(200, chat.roundTrips());
    assertEquals(200, chat.roundTripP50(), 1);
    assertEquals(4_000, chat.roundTripP99(), 4);
    assertEquals(10, chat.gapP99());
    assertEquals(500, chat.firstMessageP50());
    StreamStats watch = all.get(1);
    assertEquals(100.0, watch.receivedPerSecond(), 1e-9); // 50 in 0.5 s
    assertEquals(0, watch.roundTrips());
  }

  /** A failed stream's messages count (it sent and received them), and rates run over the level's sending span. */
  @Test
  void failedStreamsCountTheirMessagesAndRatesRunOverTheSendingSpan() {
    StreamRecorder r = new StreamRecorder();
    r.record("chat", 0, 1_000_000_000L, chat(100, 200), true);
    r.record("chat", 0, 3_000_000_000L, chat(40, 200), false); // reset after 40 messages, its end 2 s past the level
    StreamStats all = r.snapshot(name -> java.util.OptionalDouble.of(1.0)).get(0);
    assertEquals(2, all.streams());
    assertEquals(1, all.failedStreams());
    assertEquals(140, all.messagesSent());
    assertEquals(140.0, all.sentPerSecond(), 1e-9, "140 messages over the level's 1 s sending span");
    assertEquals(140.0 / 3, r.snapshot().get(0).sentPerSecond(), 0.1, "without a span: first start to last end");
  }
}
