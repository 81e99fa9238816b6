package protocols.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gatling.core.session.Session$;
import io.gatling.javaapi.core.Session;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupTest {

  @Test
  void theAutomaticWarmUpCountsOnlyOkCalls() {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      Warmup w = new Warmup("warm-up (async)", new Warmup.Plan(true, Duration.ZERO, Duration.ofSeconds(60)));
      w.goOn(); // its clock starts with the first call
      Session user = new Session(Session$.MODULE$.apply("scn", 1L, loop));
      Session after = w.countsOk().apply(user.markAsFailed());
      assertEquals(0, w.windows().get(0), "a KO is no completion: failures alone are not a stable throughput");
      assertFalse(after.isFailed(), "the user's next call is judged on its own");
      w.countsOk().apply(after);
      assertEquals(1, w.windows().get(0));
    } finally {
      loop.shutdownGracefully();
    }
  }

  @Test
  void aRateLevelWhoseCallsWereAllDroppedSaysSoRatherThanAHundredPercentKo() {
    LatencyRecorder r = new LatencyRecorder();
    r.declareOpen("echo 5000 calls/s (async)", 5_000, 10, 0);
    for (int i = 0; i < 10; i++) {
      r.recordDropped("echo 5000 calls/s (async)", i * 200_000L);
    }
    List<LatencyRecorder.RequestStats> requests = r.snapshot();
    List<String> failures = EchoRun.openLevelFailures(requests, RunAnalysis.of(requests, java.util.Optional.empty(),
        List.of()), "", InvocationMode.ASYNC, 1, false);
    assertEquals(List.of("echo 5000 calls/s (async): no call was made: all 10 calls due were dropped at the cap of 10"
        + " in flight (-DmaxInFlight)"), failures);
  }
}
