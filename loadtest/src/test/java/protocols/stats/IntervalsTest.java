package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The interval arithmetic, against reference values and sums done by hand. */
class IntervalsTest {
  @Test
  void studentsTQuantilesMatchTheTables() {
    // Reference values (any statistics table; R: qt(0.975, df)).
    assertEquals(12.7062047, Intervals.tQuantile(0.975, 1), 1e-6);
    assertEquals(4.3026527, Intervals.tQuantile(0.975, 2), 1e-6);
    assertEquals(2.7764451, Intervals.tQuantile(0.975, 4), 1e-6);
    assertEquals(2.2281389, Intervals.tQuantile(0.975, 10), 1e-6);
    assertEquals(2.0422725, Intervals.tQuantile(0.975, 30), 1e-6);
    assertEquals(1.9599640, Intervals.tQuantile(0.975, Double.POSITIVE_INFINITY), 1e-5);
    assertEquals(-2.7764451, Intervals.tQuantile(0.025, 4), 1e-6);
    double between = Intervals.tQuantile(0.975, 2.5); // Welch's degrees of freedom are not whole
    assertTrue(between < 4.3026527 && between > 3.1824463, "between df 2 and df 3: " + between);
  }

  @Test
  void oneRunsWindowsGiveATIntervalOnTheirMean() {
    // Mean 100, deviations 0, 10, -10, 5, -5: sum of squares 250, sd sqrt(250 / 4); a negative lag-1
    // autocorrelation counts as none, so 5 windows are 5 samples: se = sd / sqrt(5), t(0.975, 4).
    Interval i = Intervals.ofWindows(new long[] {100, 110, 90, 105, 95}).interval();
    double half = 2.7764451 * Math.sqrt(250.0 / 4) / Math.sqrt(5);
    assertEquals(100, i.mid(), 1e-9);
    assertEquals(100 - half, i.lo(), 1e-6);
    assertEquals(100 + half, i.hi(), 1e-6);
  }

  @Test
  void autocorrelatedWindowsCountAsFewerSamples() {
    // Mean 110, deviations -10 x3 then +10 x3: sum of squares 600, lagged products 300, rho 0.5:
    // 6 * 0.5 / 1.5 = 2 independent samples, so se = sqrt(600 / 5) / sqrt(2) and t(0.975, 1).
    Intervals.Estimate e = Intervals.ofWindows(new long[] {100, 100, 100, 120, 120, 120});
    assertEquals(1, e.degreesOfFreedom(), 1e-9);
    assertEquals(Math.sqrt(120) / Math.sqrt(2), e.standardError(), 1e-9);
    assertEquals(12.7062047 * Math.sqrt(60), e.interval().hi() - 110, 1e-5);
    assertTrue(e.method().contains("lag-1 autocorrelation 0.50: as 2.0 independent"), e.method());
  }

  @Test
  void aRatiosIntervalIsOnTheLogScaleWithWelchsDegreesOfFreedom() {
    // Both sides 5% relative error on 4 df: log-ratio se = 0.05 * sqrt(2); Welch: (2 * 0.05^2)^2 /
    // (2 * 0.05^4 / 4) = 8 df; t(0.975, 8) = 2.3060041.
    Interval r = Intervals.ratio(new Intervals.Estimate(100, 5, 4, "a"), new Intervals.Estimate(50, 2.5, 4, "b"));
    double half = 2.3060041 * 0.05 * Math.sqrt(2);
    assertEquals(0.5, r.mid(), 1e-12);
    assertEquals(0.5 * Math.exp(-half), r.lo(), 1e-7);
    assertEquals(0.5 * Math.exp(half), r.hi(), 1e-7);
  }

  @Test
  void aVerdictNeedsAnIntervalThatExcludesOneAndAChangeOverTheNoiseFloor() {
    Interval halved = new Interval(0.42, 0.5, 0.59, "");
    assertEquals(Verdict.SLOWER, Intervals.verdict(halved, true, 0.25), "half the calls/s");
    assertEquals(Verdict.FASTER, Intervals.verdict(halved, false, 0.25), "half the latency");
    assertEquals(Verdict.NO_DIFFERENCE, Intervals.verdict(new Interval(0.9, 1.02, 1.15, ""), true, 0.25),
        "the interval holds 1");
    assertEquals(Verdict.NO_DIFFERENCE, Intervals.verdict(new Interval(1.1, 1.15, 1.2, ""), true, 0.25),
        "excludes 1, but 15% is within a 25% floor");
    assertEquals(Verdict.FASTER, Intervals.verdict(new Interval(1.1, 1.15, 1.2, ""), true, 0.05));
    assertEquals(Verdict.NOT_JUDGED, Intervals.verdict(Intervals.ratio(Intervals.ofWindows(new long[] {5}),
        Intervals.ofWindows(new long[] {5, 6})), true, 0.25), "one window: no interval");
  }
}
