package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import protocols.stats.LatencyRecorder;
import protocols.stats.Saturation;
import protocols.stats.RequestStats;

class SaturationTest {
  private static final long MS = 1_000_000L;

  /**
   * A 2-second open level offered 1,000 calls/s: {@code sent} calls due 1 ms apart, each sent
   * {@code lagMicros} late and answered {@code serviceMicros} later, and {@code dropped} dropped.
   */
  private static RequestStats level(int sent, long lagMicros, long serviceMicros, int dropped) {
    LatencyRecorder r = new LatencyRecorder();
    r.declareOpen("echo 1000 calls/s (async)", 1_000, 100, 0);
    for (int k = 0; k < sent; k++) {
      long due = k * MS;
      long start = due + lagMicros * 1_000;
      r.recordOpen("echo 1000 calls/s (async)", due, start, start + serviceMicros * 1_000, null);
    }
    for (int i = 0; i < dropped; i++) {
      r.recordDropped("echo 1000 calls/s (async)", (sent + i) * MS);
    }
    return r.snapshot().get(0);
  }

  @Test
  void aLevelThatKeptUpIsNotSaturated() {
    Saturation s = SaturationCheck.of(level(2_000, 100, 300, 0), null);
    assertFalse(s.saturated(), s.reason());
    assertNull(s.limit());
  }

  /** 3% of calls time out at 1 s: the OK rate is within tolerance, yet the level did not serve what was offered. */
  @Test
  void callsThatTimeOutCountInTheVerdictAndInTheResponseTail() {
    LatencyRecorder r = new LatencyRecorder();
    r.declareOpen("echo 1000 calls/s (async)", 1_000, 100, 0);
    for (int k = 0; k < 2_000; k++) {
      long due = k * MS;
      boolean timesOut = k % 100 < 3;
      r.recordOpen("echo 1000 calls/s (async)", due, due + 100_000, due + (timesOut ? 1_000 * MS : 300_000),
          timesOut ? "timeout" : null);
    }
    RequestStats level = r.snapshot().get(0);
    assertTrue(level.open().responseP99() >= 999_000, "the timed-out calls are the response tail: "
        + level.open().responseP99());
    assertEquals(200, level.p99(), 2, "service time (sent to reply): OK calls");
    Saturation s = SaturationCheck.of(level, null);
    assertTrue(s.saturated(), s.reason());
    assertTrue(s.reason().contains("60 KO (3.0%)"), s.reason());
  }

  @Test
  void dropsAtTheCapWithSendsOnTimeMeanTheServer() {
    Saturation s = SaturationCheck.of(level(1_900, 100, 300, 100), null);
    assertTrue(s.saturated());
    assertEquals(Saturation.SERVER, s.limit());
    assertTrue(s.reason().contains("100 dropped"), s.reason());
  }

  @Test
  void repliesFallingBehindMeanTheServer() {
    // Every reply 300 ms late: of 2,000 calls sent over 2 s, 1,700 end within those 2 s: 850 calls/s.
    Saturation s = SaturationCheck.of(level(2_000, 100, 300_000, 0), null);
    assertTrue(s.saturated());
    assertEquals(Saturation.SERVER, s.limit());
  }

  @Test
  void lateSendsMeanTheInjector() {
    Saturation s = SaturationCheck.of(level(2_000, 3_000, 300, 0), null);
    assertTrue(s.saturated());
    assertEquals(Saturation.INJECTOR, s.limit());
    assertTrue(s.reason().contains("send lag p50 300"), s.reason());
  }

  @Test
  void lateSendsBehindSlowerRepliesStillMeanTheServer() {
    // A starved machine: sends 2 ms late, but calls take 50 ms and pile up to the cap.
    Saturation s = SaturationCheck.of(level(1_500, 2_000, 50_000, 500), null);
    assertTrue(s.saturated());
    assertEquals(Saturation.SERVER, s.limit(), s.reason());
  }
}
