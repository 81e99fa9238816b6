package protocols.nightly;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.lab.LoadParams;
import protocols.load.RunAnalysis;
import protocols.rpc.InvocationMode;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.stats.RequestStats;

class NightlyTest {

  /** {@code perSecond} calls each second for {@code seconds} seconds, each taking {@code micros}. */
  private static RequestStats level(Level level, int perSecond, int seconds, long micros) {
    LatencyRecorder r = new LatencyRecorder();
    r.describe(level.name(), level);
    long gap = 1_000_000_000L / perSecond;
    for (long i = 0; i < (long) perSecond * seconds; i++) {
      r.record(level.name(), i * gap, i * gap + micros * 1_000, true);
    }
    return r.snapshot().get(0);
  }

  /** -Drepeat=3: tonight's level is the median of its trials, its noise their spread, its calls every trial's. */
  @Test
  void aLevelMeasuredOverTrialsIsTheirMedianWithTheirSpread() {
    Level grpc = Level.closed("grpc", 20, InvocationMode.ASYNC);
    List<RequestStats> requests = new ArrayList<>();
    int[] calls = {1000, 1200, 1100};
    for (int t = 1; t <= 3; t++) {
      requests.add(level(grpc.trial(t), calls[t - 1], 3, 100 * t));
    }
    Nightly nightly = new Nightly(List.of("grpc"), new LoadParams(Map.of("levels", "20")));
    List<Nightly.Tonight> tonight = nightly.levels(requests, RunAnalysis.of(requests, Optional.empty(), List.of()));
    assertEquals(1, tonight.size(), tonight.toString());
    Nightly.Tonight t = tonight.get(0);
    assertEquals(grpc, t.level());
    assertEquals(1100, t.callsPerSecond(), 15);
    assertEquals(3, t.windows(), "its noise is over its 3 trials");
    assertEquals(0.0909, t.spread(), 0.005, "the trials' standard deviation (100) over their mean (1100)");
    assertEquals(3 * (1000 + 1200 + 1100), t.count(), "every trial's calls");
    assertEquals(200, t.p99(), 5, "the median trial's p99");
  }
}
