package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.load.RunAnalysis;
import protocols.rpc.InvocationMode;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.stats.RequestStats;

class EchoLevelsTest {

  @Test
  void aRateLevelWhoseCallsWereAllDroppedSaysSoRatherThanAHundredPercentKo() {
    LatencyRecorder r = new LatencyRecorder();
    r.describe("echo 5000 calls/s (async)", Level.rate(null, 5_000, InvocationMode.ASYNC));
    r.declareOpen("echo 5000 calls/s (async)", 5_000, 10, 0);
    for (int i = 0; i < 10; i++) {
      r.recordDropped("echo 5000 calls/s (async)", i * 200_000L);
    }
    List<RequestStats> requests = r.snapshot();
    List<String> failures = EchoLevels.openLevelFailures(requests, RunAnalysis.of(requests, java.util.Optional.empty(),
        List.of()), null, InvocationMode.ASYNC, 1, false);
    assertEquals(List.of("echo 5000 calls/s (async): no call was made: all 10 calls due were dropped at the cap of 10"
        + " in flight (-DmaxInFlight)"), failures);
  }
}
