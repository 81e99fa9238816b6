package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamTrialsTest {
  /** R's {@code sleep} data, as in TrialStatsTest: paired, mean difference -1.58, [-2.4598858, -0.7001142]. */
  private static final double[] GROUP1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
  private static final double[] GROUP2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

  @Test
  void aLevelsNameIsMadeFromItsValues() {
    assertEquals("grpc chat 1 stream", StreamLevel.chat("grpc", 1, 0).name());
    assertEquals("triple chat 10 streams at 500 msg/s trial 3", StreamLevel.chat("triple", 10, 500).trial(3).name());
    assertEquals("chat 10 streams at 500 msg/s", StreamLevel.chat("triple", 10, 500).trial(3).load());
    assertEquals(StreamLevel.chat("grpc", 5, 0), StreamLevel.chat("grpc", 5, 0).trial(2).overTrials());
  }

  /**
   * Two frameworks in ten rounds: triple's messages/s over gRPC's per round is exp(group1 - group2) of
   * R's sleep data, so the pair's interval is R's paired t-test exponentiated; equal p50s read no
   * difference, and p99s 30% apart stay under the 40% p99 floor.
   */
  @Test
  void frameworksInTheSameRoundsPairUpAsRsPairedTestSays() {
    List<StreamStats> streams = new ArrayList<>();
    for (int t = 1; t <= 10; t++) {
      streams.add(stats(StreamLevel.chat("grpc", 10, 0).trial(t), 1_000 * Math.exp(GROUP2[t - 1]), 400 + t, 1_000));
      streams.add(stats(StreamLevel.chat("triple", 10, 0).trial(t), 1_000 * Math.exp(GROUP1[t - 1]), 400 + t, 1_300));
    }
    streams.add(stats(StreamLevel.chat("grpc", 1, 0), 900, 100, 200)); // measured once: no interval
    streams.add(stats(null, 900, 100, 200)); // another simulation's streams
    StreamTrials trials = StreamTrials.of(streams, 7, name -> name.endsWith("trial 2"));

    assertEquals(List.of("grpc chat 10 streams", "triple chat 10 streams"),
        trials.levels().stream().map(StreamTrials.Row::name).toList());
    StreamTrials.Row grpc = trials.levels().get(0);
    assertEquals(10, grpc.trials());
    double[] received = java.util.Arrays.stream(GROUP2).map(x -> 1_000 * Math.exp(x)).toArray();
    assertEquals(TrialStats.median(received, 7), grpc.receivedPerSecond(), "the bootstrap median of its trials");
    assertEquals(405.5, grpc.roundTripP50().mid(), 1e-9);
    assertEquals(List.of("grpc chat 10 streams trial 2"), grpc.warnedTrials(), "the trials the run warned of");

    assertEquals(1, trials.pairs().size());
    StreamTrials.Pair p = trials.pairs().get(0);
    assertEquals("grpc", p.baseline());
    assertEquals("triple", p.candidate());
    assertEquals("chat 10 streams", p.level());
    assertEquals(-1.58, Math.log(p.receivedRatio().mid()), 1e-9);
    assertEquals(-2.4598858, Math.log(p.receivedRatio().lo()), 1e-6);
    assertEquals(-0.7001142, Math.log(p.receivedRatio().hi()), 1e-6);
    assertEquals(Verdict.SLOWER, p.receivedVerdict());
    assertEquals(1.0, p.roundTripP50Ratio().mid(), 1e-12);
    assertEquals(Verdict.NO_DIFFERENCE, p.roundTripP50Verdict());
    assertEquals(1.3, p.roundTripP99Ratio().mid(), 1e-12);
    assertEquals(Verdict.NO_DIFFERENCE, p.roundTripP99Verdict(), "30% is under the p99 floor");

    assertEquals(1, trials.resolutions().size());
    double[][] spread = {received, java.util.Arrays.stream(GROUP1).map(x -> 1_000 * Math.exp(x)).toArray()};
    assertEquals(TrialStats.pairedResolution(spread), trials.resolutions().get(0).paired(), 1e-12);
    assertEquals(10, trials.resolutions().get(0).rounds());
  }

  @Test
  void streamsMeasuredOnceHaveNoTrials() {
    StreamTrials trials = StreamTrials.of(List.of(stats(StreamLevel.chat("grpc", 1, 0), 900, 100, 200),
        stats(StreamLevel.chat("triple", 1, 0), 800, 100, 200)), 7, name -> false);
    assertTrue(trials.isEmpty());
    assertTrue(trials.pairs().isEmpty());
  }

  private static StreamStats stats(StreamLevel level, double received, long p50, long p99) {
    return new StreamStats(level == null ? "watch" : level.name(), 10, 0, 1_000, 1_000, received, received, 50, 90,
        5, 9, 12, 1_000, p50, p99, p99 + 1, p99 + 2, 0, 0, 0, 0, level);
  }
}
