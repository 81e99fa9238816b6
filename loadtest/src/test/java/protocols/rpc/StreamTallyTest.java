package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class StreamTallyTest {
  private static final StreamPlan CHAT = StreamPlan.of(StreamTally.Kind.BIDI).messages("chat", 10).echoed("chat");

  /** Sends 10 messages 100 ms after the stream opened, each answered at once. */
  private static StreamResult lateChat(StreamPlan plan) throws Exception {
    StreamTally tally = new StreamTally(plan, "chat", "m", 100);
    tally.started();
    Thread.sleep(100);
    while (!tally.allSent()) {
      assertTrue(tally.mayPipeline(), "every message is due by now");
      tally.sending();
      assertTrue(tally.received("m"));
    }
    CompletableFuture<StreamResult> done = new CompletableFuture<>();
    tally.ended(null, done);
    return done.get();
  }

  @Test
  void aPacedMessageSentLateCountsItsRoundTripFromWhenItWasDue() throws Exception {
    // 1,000/s: message 9 was due 9 ms after the opening and went out after 100 ms.
    StreamResult paced = lateChat(CHAT.perSecond("chat", 1_000));
    assertEquals(10, paced.sendLagsMicros().getTotalCount());
    assertTrue(paced.sendLagsMicros().getMinValue() >= 90_000, "each went out 91 ms or more late");
    assertTrue(paced.roundTripsMicros().getMinValue() >= 90_000, "round trips count from the due time: "
        + paced.roundTripsMicros().getMinValue());
    StreamResult unpaced = lateChat(CHAT);
    assertEquals(0, unpaced.sendLagsMicros().getTotalCount(), "no lag without a pace");
    assertTrue(unpaced.roundTripsMicros().getMaxValue() < 90_000, "unpaced, a round trip counts from the send");
  }

  /** A stream that fails part way keeps what it did: its error is the one judged, its messages still count. */
  @Test
  void aFailedStreamCarriesItsMessagesBesideItsError() throws Exception {
    StreamTally tally = new StreamTally(CHAT, "chat", "m", 100);
    tally.started();
    for (int i = 0; i < 3; i++) {
      tally.sending();
      tally.received("m");
    }
    tally.sending(); // the fourth is never answered
    CompletableFuture<StreamResult> done = new CompletableFuture<>();
    IllegalStateException reset = new IllegalStateException("connection reset");
    tally.ended(reset, done);
    Throwable error = done.handle((r, e) -> e).get();
    assertEquals(reset, Errors.unwrap(error), "what judges the call sees the stream's own error");
    StreamResult partial = StreamResult.partialOf(error);
    assertEquals(4, partial.sent());
    assertEquals(3, partial.received());
    assertEquals(3, partial.roundTripsMicros().getTotalCount());
    assertEquals(reset, assertThrows(java.util.concurrent.ExecutionException.class, done::get).getCause());
  }

  @Test
  void aPacedStreamWaitsForEachMessagesDueTime() {
    StreamTally tally = new StreamTally(CHAT.perSecond("chat", 1), "chat", "m", 100);
    tally.started();
    assertTrue(tally.mayPipeline(), "the first is due at the opening");
    tally.sending();
    assertFalse(tally.mayPipeline(), "the second is due a second later");
    long wait = tally.nanosUntilDue();
    assertTrue(wait > 900_000_000L && wait <= 1_000_000_000L, "waits about a second: " + wait);
  }

  @Test
  void aPlanRefusesWhatItsKindCannotDo() {
    StreamPlan watch = StreamPlan.of(StreamTally.Kind.SERVER);
    assertThrows(IllegalArgumentException.class, () -> watch.perSecond("watch", 10));
    assertThrows(IllegalArgumentException.class, () -> watch.messages("watch", 10));
    assertThrows(IllegalArgumentException.class, () -> StreamPlan.of(StreamTally.Kind.CLIENT).echoed("upload"));
    assertThrows(IllegalArgumentException.class, () -> CHAT.perSecond("chat", 0));
    assertThrows(IllegalArgumentException.class, () -> CHAT.perSecond("chat", Double.NaN));
  }
}
