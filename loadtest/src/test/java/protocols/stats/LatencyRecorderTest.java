package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.load.SaturationCheck;
import protocols.load.RunAnalysis;
import protocols.rpc.InvocationMode;

class LatencyRecorderTest {
  private static final long MS = 1_000_000L;

  @Test
  void percentilesAndCountsFromKnownLatencies() {
    LatencyRecorder r = new LatencyRecorder();
    // 1..1000 µs, one call each, laid end to end over 1 second; plus 10 KOs.
    long t = 0;
    for (int us = 1; us <= 1000; us++) {
      r.record("echo", t, t + us * 1_000L, true);
      t += MS;
    }
    for (int i = 0; i < 10; i++) {
      r.record("echo", 0, 5, false);
    }
    RequestStats s = r.snapshot().get(0);
    assertEquals(1010, s.count());
    assertEquals(10, s.ko());
    assertEquals(500.5, s.mean(), 0.5);
    assertEquals(500, s.p50(), 1);
    assertEquals(900, s.p90(), 1);
    assertEquals(990, s.p99(), 1);
    assertEquals(999, s.p999(), 1);
    assertEquals(1000, s.max(), 1);
    // first start 0, last end 999 ms + 1000 µs = 1.000 s
    assertEquals(1.0, s.durationSeconds(), 0.001);
    assertEquals(1010, s.throughput(), 1);
  }

  @Test
  void callsRecordedOnManyThreadsMergeExactlyAndSnapshotsAccumulate() throws Exception {
    LatencyRecorder r = new LatencyRecorder();
    org.HdrHistogram.Histogram expected = new org.HdrHistogram.Histogram(3);
    int threads = 4;
    int perThread = 20_000;
    for (int round = 0; round < 2; round++) {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<Thread> writers = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread w = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          for (int i = 0; i < perThread; i++) {
            long us = 1 + (i * 7L + id) % 5000;
            long start = (long) i * 100_000; // 10 calls per ms: 2 s per round
            r.record("echo", start, start + us * 1_000, i % 100 != 0); // every 100th a KO
          }
        });
        writers.add(w);
        w.start();
      }
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i++) {
          if (i % 100 != 0) {
            expected.recordValue(1 + (i * 7L + t) % 5000);
          }
        }
      }
      go.countDown();
      // Snapshots while they write take the shards' interval histograms: what one snapshot took must
      // stay in the next (and in the last), never be lost or counted twice.
      long seen = 0;
      for (int i = 0; i < 20; i++) {
        long ok = r.stats("echo").map(st -> st.decodeHistogram().getTotalCount()).orElse(0L);
        assertTrue(ok >= seen, "snapshot " + i + " holds " + ok + " OK calls, the one before " + seen);
        seen = ok;
      }
      for (Thread w : writers) {
        w.join();
      }
      RequestStats s = r.snapshot().get(0);
      assertEquals((long) (round + 1) * threads * perThread, s.count());
      assertEquals(s.count(), r.count("echo"));
      assertEquals((long) (round + 1) * threads * perThread / 100, s.ko());
      assertEquals(expected, s.decodeHistogram());
      assertEquals(s.count() - s.ko(), java.util.Arrays.stream(s.okWindows()).sum());
      assertEquals(s.ko(), java.util.Arrays.stream(s.koWindows()).sum());
    }
    assertEquals(0, r.count("other"));
  }

  @Test
  void requestNamesKeepTheOrderTheyWereFirstSeen() {
    LatencyRecorder r = new LatencyRecorder();
    r.record("echo 5 clients (async)", 0, 10_000, true);
    r.record("echo 1 clients (async)", 0, 10_000, true);
    r.record("echo 5 clients (async)", 0, 10_000, true);
    assertEquals(List.of("echo 5 clients (async)", "echo 1 clients (async)"),
        r.snapshot().stream().map(RequestStats::name).toList());
  }

  @Test
  void aNameDescribedAheadIsNoRowUntilItsFirstCallAndThenTakesItsPlaceInTheOrder() {
    LatencyRecorder r = new LatencyRecorder();
    Level one = Level.closed("grpc", 1, InvocationMode.ASYNC);
    Level five = Level.closed("grpc", 5, InvocationMode.ASYNC);
    r.describe(five.name(), five); // described in the scenario's order, called in another
    r.describe(one.name(), one);
    assertEquals(List.of(), r.snapshot());
    assertEquals(Optional.empty(), r.stats(five.name()));
    r.started(one.name(), 0);
    r.record(one.name(), 0, 10_000, true);
    r.record(five.name(), 20_000, 30_000, true);
    assertEquals(List.of(one.name(), five.name()), r.snapshot().stream().map(RequestStats::name).toList());
    assertEquals(five, r.stats(five.name()).orElseThrow().level());
  }

  @Test
  void onlyKosGiveZeroLatencies() {
    LatencyRecorder r = new LatencyRecorder();
    r.record("echo", 0, 3 * MS, false);
    RequestStats s = r.snapshot().get(0);
    assertEquals(1, s.ko());
    assertEquals(0, s.p99());
    assertEquals(0, s.max());
  }

  @Test
  void anOpenCallRecordsServiceResponseAndLagFromItsDueTime() {
    LatencyRecorder r = new LatencyRecorder();
    r.declareOpen("echo 100 calls/s (async)", 100, 10, 0);
    for (int k = 0; k < 100; k++) {
      long due = k * 10 * MS;
      // sent 50 µs late, answered 200 µs after the send
      r.recordOpen("echo 100 calls/s (async)", due, due + 50_000, due + 250_000, null);
    }
    r.recordDropped("echo 100 calls/s (async)", 5 * MS);
    r.recordDropped("echo 100 calls/s (async)", 15 * MS);
    r.record("echo 5 clients (async)", 0, 100_000, true);
    List<RequestStats> all = r.snapshot();
    RequestStats open = all.get(0);
    assertTrue(open.isOpen());
    assertEquals(100, open.count());
    assertEquals(200, open.p50(), 1, "service time: sent to reply");
    assertEquals(250, open.open().responseP50(), 1, "response time: due to reply");
    assertEquals(50, open.open().lagP50(), 1);
    assertEquals(2, open.open().dropped());
    assertEquals(100, open.open().offered());
    // Under a second of sending: the span runs from the first due time to the last reply.
    assertEquals(0.99025, open.durationSeconds(), 0.0001);
    assertTrue(!all.get(1).isOpen(), "a closed level has no open figures");
  }

  /** A 15-second level: {@code rate} calls/s due on schedule, each answered in 200 µs, but its last in {@code lastMillis}. */
  private static RequestStats level(boolean open, int rate, long lastMillis) {
    LatencyRecorder r = new LatencyRecorder();
    String name = open ? "echo " + rate + " calls/s (async)" : "echo 5 clients (async)";
    if (open) {
      r.declareOpen(name, rate, 10_000, 0);
    } else {
      r.started(name, 0);
    }
    int calls = 15 * rate;
    for (int k = 0; k < calls; k++) {
      long due = k * 1_000_000_000L / rate;
      long end = due + (k == calls - 1 ? lastMillis * MS : 200_000);
      if (open) {
        r.recordOpen(name, due, due, end, null);
      } else {
        r.record(name, due, end, true);
      }
    }
    return r.snapshot().get(0);
  }

  @Test
  void aLevelsLastCallTakingThreeSecondsDoesNotMoveItsRateOrItsVerdict() {
    for (boolean open : new boolean[] {true, false}) {
      RequestStats quick = level(open, 1_000, 0);
      RequestStats late = level(open, 1_000, 3_000);
      assertEquals(15.0, quick.durationSeconds(), 1e-9, "the sending span, to its last start's tenth");
      assertEquals(15.0, late.durationSeconds(), 1e-9, "a late reply does not stretch it");
      double change = Math.abs(late.okThroughput() - quick.okThroughput()) / quick.okThroughput();
      assertTrue(change < 0.01, "calls/s " + quick.okThroughput() + " then " + late.okThroughput());
      assertEquals(quick.count(), late.count(), "the late call is still counted");
      RunAnalysis a = RunAnalysis.of(List.of(late), Optional.empty(), List.of());
      assertEquals(List.of(), a.warnings(), "no stall, no unsteadiness from the seconds after the level stopped");
      assertEquals(15, a.levels().get(0).fullWindows());
      if (open) {
        assertFalse(SaturationCheck.of(late, null).saturated(), SaturationCheck.of(late, null).reason());
      }
    }
  }

  private static long sum(long[] windows) {
    return java.util.Arrays.stream(windows).sum();
  }

  @Test
  void aLevelWhoseFaultWindowIsCountedApartIsTimedOverWhatItCovers() {
    List<RequestStats> rows = FaultedLevel.record();
    RequestStats level = rows.get(0);
    RequestStats window = rows.get(1);
    assertTrue(window.duringFault(), window.name());
    assertEquals(20.0 - 7.5, level.durationSeconds(), 0.101, "its sending span less the fault row's");
    assertEquals(level.count() / level.durationSeconds(), level.throughput(), 0.01 * level.throughput(),
        "its calls over the time it covers");
    assertEquals(1_000, level.okThroughput(), 15, "the rate outside the fault, not diluted by the window");
    assertEquals(7.5, window.durationSeconds(), 0.101, "the fault row over its own span");
    assertEquals(window.count() / window.durationSeconds(), window.throughput(), 0.01 * window.throughput());
    assertEquals(0, (window.startNanos() - level.startNanos()) % 1_000_000_000L,
        "the fault row keeps the level's clock, moved on by whole seconds, so its windows line up");
    assertEquals(3_000 * MS, window.startNanos() - level.startNanos());
    assertEquals(30, level.okWindows()[3], "second 3: the level's calls before the fault");
    assertEquals(97, window.koWindows()[0], "second 3: the fault row's, one per 10 ms from 3.03 s");
    assertEquals(level.count() + window.count(),
        sum(level.okWindows()) + sum(level.koWindows()) + sum(window.okWindows()) + sum(window.koWindows()),
        "every call in a window");
  }

  @Test
  void theWindowsCountFromTheLevelsFirstStartNotItsFirstReply() {
    LatencyRecorder r = new LatencyRecorder();
    r.started("echo 2 clients (async)", 0);
    r.record("echo 2 clients (async)", 900 * MS, 1_100 * MS, true); // answered first
    r.record("echo 2 clients (async)", 0, 1_300 * MS, true); // the level's first call, slow
    RequestStats s = r.snapshot().get(0);
    assertEquals(0, s.startNanos(), "the level's clock starts with its first call");
    assertArrayEquals(new long[] {0, 2}, s.okWindows(), "both replies came in the level's second second");
  }

  @Test
  void perSecondPercentilesMergeTheThreadsThatRecordedThem() throws Exception {
    LatencyRecorder r = new LatencyRecorder();
    r.started("echo", 0);
    List<Thread> threads = new java.util.ArrayList<>();
    // Both threads go through the seconds together, as event loops completing calls in real time do.
    java.util.concurrent.CyclicBarrier second = new java.util.concurrent.CyclicBarrier(2);
    for (long micros : new long[] {100, 300}) {
      Thread t = new Thread(() -> {
        for (int s = 0; s < 10; s++) {
          for (int i = 0; i < 100; i++) {
            long start = s * 1_000 * MS + i * 10 * MS;
            r.record("echo", start, start + micros * 1_000, true);
          }
          try {
            second.await(5, TimeUnit.SECONDS);
          } catch (Exception e) {
            return;
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    RequestStats s = r.snapshot().get(0);
    assertEquals(10, s.p50Windows().length);
    for (int w = 0; w < 10; w++) {
      assertEquals(100, s.p50Windows()[w], 1, "second " + w + ": half the calls took 100 µs");
      assertEquals(300, s.p99Windows()[w], 2, "second " + w + ": the other half, on another thread, 300 µs");
    }
  }
}
