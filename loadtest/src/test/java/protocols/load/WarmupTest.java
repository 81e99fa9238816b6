package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.session.Session$;
import io.gatling.javaapi.core.Session;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

class WarmupTest {

  @Test
  void theAutomaticWarmUpCountsOnlyOkCalls() {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      Warmup w = Warmup.of("warm-up (async)", new Warmup.Plan(true, Duration.ZERO, Duration.ofSeconds(60)));
      w.goOn(); // its clock starts with the first call
      Session user = new Session(Session$.MODULE$.apply("scn", 1L, loop));
      Session after = w.countsOk().apply(user.markAsFailed());
      // All windows summed: on a busy machine the second call may fall in a later second than the first.
      assertEquals(0, completions(w), "a KO is no completion: failures alone are not a stable throughput");
      assertFalse(after.isFailed(), "the user's next call is judged on its own");
      w.countsOk().apply(after);
      assertEquals(1, completions(w));
    } finally {
      loop.shutdownGracefully();
    }
  }

  private static long completions(Warmup w) {
    long sum = 0;
    for (int i = 0; i < w.windows().length(); i++) {
      sum += w.windows().get(i);
    }
    return sum;
  }

  @Test
  void aSettleEndsOnlyOnceItsLastThreeSecondsAreSteady() {
    // gRPC at 1 client after its warm-up, before the rehearsal (issue 48): 921, 2925, 3180, 4352, 5476, 5610
    AtomicLongArray windows = new AtomicLongArray(new long[] {921, 2925, 3180, 4352, 5476, 5610, 5540});
    for (int full = 0; full <= 5; full++) {
      assertFalse(Warmup.isStable(windows, full, Warmup.SETTLE_WINDOWS), "still climbing after " + full + " s");
    }
    assertTrue(Warmup.isStable(windows, 7, Warmup.SETTLE_WINDOWS), "5476, 5610, 5540: steady");
    assertFalse(Warmup.isStable(windows, 7), "the warm-up's own rule wants ten seconds");
  }

  @Test
  void settleAndWarmUpPlansReadAutoOrSecondsAndTheRehearsalFollowsTheWarmUp() {
    Duration bound = Duration.ofSeconds(Warmup.DEFAULT_SETTLE_SECONDS);
    assertEquals(new Warmup.Plan(true, Duration.ZERO, bound), Warmup.Plan.parse("settle", "auto", bound));
    assertTrue(Warmup.Plan.parse("settle", "0", bound).skipped());
    assertEquals(Duration.ofSeconds(3), Warmup.Plan.parse("settle", "3", bound).limit());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Warmup.Plan.parse("settle", "soon", bound));
    assertEquals("-Dsettle must be auto or a whole number of seconds from 0 to 3600, got 'soon'", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Warmup.Plan.parse("settle", "-1", bound));

    Warmup.Plan auto = new Warmup.Plan(true, Duration.ZERO, Duration.ofSeconds(60));
    assertEquals(new Warmup.Plan(true, Duration.ZERO, bound), auto.rehearsal());
    assertEquals(Duration.ofSeconds(2), new Warmup.Plan(false, Duration.ofSeconds(2), bound).rehearsal().limit());
    assertEquals(bound, new Warmup.Plan(false, Duration.ofSeconds(30), bound).rehearsal().limit());
  }
}
