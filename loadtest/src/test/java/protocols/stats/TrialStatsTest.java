package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrialStatsTest {
  /**
   * R's paired t-test of its {@code sleep} data, {@code t.test(extra ~ group, data = sleep, paired = TRUE)}:
   * mean difference -1.58, 95% interval [-2.4598858, -0.7001142] (9 degrees of freedom).
   */
  @Test
  void aMeansIntervalIsStudentsTAsRGivesIt() {
    double[] group1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    double[] group2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    double[] differences = new double[10];
    for (int i = 0; i < 10; i++) {
      differences[i] = group1[i] - group2[i];
    }
    Interval i = TrialStats.mean(differences);
    assertEquals(-1.58, i.mid(), 1e-9);
    assertEquals(-2.4598858, i.lo(), 1e-6);
    assertEquals(-0.7001142, i.hi(), 1e-6);
  }

  /**
   * R's Welch test of the same data unpaired, {@code t.test(extra ~ group, data = sleep)}: -1.58, 95%
   * interval [-3.3654832, 0.2054832] (17.776 degrees of freedom); here on the exponentials, as the ratio
   * of geometric means is Welch's t on the logarithms.
   */
  @Test
  void anUnpairedRatioIsWelchsTOnTheLogarithms() {
    double[] group1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    double[] group2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    Interval i = TrialStats.unpairedRatio(Arrays.stream(group2).map(Math::exp).toArray(),
        Arrays.stream(group1).map(Math::exp).toArray());
    assertEquals(-1.58, Math.log(i.mid()), 1e-9);
    assertEquals(-3.3654832, Math.log(i.lo()), 1e-5);
    assertEquals(0.2054832, Math.log(i.hi()), 1e-5);
    assertTrue(i.method().contains("17.8 degrees of freedom"), i.method());
    assertTrue(Double.isNaN(TrialStats.unpairedRatio(new double[] {1}, new double[] {1, 2}).lo()), "one trial: none");
  }

  /** The bootstrap of the median, done here by hand from the same seed: resample, take medians, sort, 2.5% and 97.5%. */
  @Test
  void aMediansIntervalIsThePercentileBootstrapOfItsTrials() {
    double[] trials = {21_400, 23_100, 19_800, 25_700, 22_600};
    long seed = 42;
    Random random = new Random(seed);
    double[] medians = new double[TrialStats.RESAMPLES];
    for (int b = 0; b < medians.length; b++) {
      double[] sample = new double[trials.length];
      for (int i = 0; i < sample.length; i++) {
        sample[i] = trials[random.nextInt(trials.length)];
      }
      Arrays.sort(sample);
      medians[b] = sample[2];
    }
    Arrays.sort(medians);
    double lo = medians[49] + 0.975 * (medians[50] - medians[49]); // (2000 - 1) x 0.025 = 49.975
    double hi = medians[1949] + 0.025 * (medians[1950] - medians[1949]); // (2000 - 1) x 0.975 = 1949.025

    Interval i = TrialStats.median(trials, seed);
    assertEquals(22_600, i.mid());
    assertEquals(lo, i.lo(), 1e-9);
    assertEquals(hi, i.hi(), 1e-9);
    assertTrue(i.lo() >= 19_800 && i.hi() <= 25_700 && i.contains(22_600), i.toString());
    assertEquals(i, TrialStats.median(trials, seed), "the same seed, the same interval");
    assertTrue(Double.isNaN(TrialStats.median(new double[] {5}, seed).lo()), "one trial: no interval over trials");
  }

  @Test
  void aPairedRatioIsTheGeometricMeanOfTheRoundsRatiosWithTOnTheirLogarithms() {
    double[] baseline = {1000, 1200, 800};
    double[] halved = {500, 600, 400};
    Interval exact = TrialStats.pairedRatio(baseline, halved);
    assertEquals(0.5, exact.mid(), 1e-12);
    assertEquals(0.5, exact.lo(), 1e-12, "the same ratio every round: no spread");

    double[] candidate = {950, 1260, 760};
    Interval r = TrialStats.pairedRatio(baseline, candidate);
    double[] logs = {Math.log(0.95), Math.log(1.05), Math.log(0.95)};
    Interval byHand = TrialStats.mean(logs);
    assertEquals(Math.exp(byHand.mid()), r.mid(), 1e-12);
    assertEquals(Math.exp(byHand.lo()), r.lo(), 1e-12);
    assertEquals(Math.exp(byHand.hi()), r.hi(), 1e-12);
    assertTrue(r.contains(1), "±5% over three rounds tells nothing apart: " + r);
    assertEquals(Verdict.NO_DIFFERENCE, Intervals.verdict(r, true, TrialStats.NOISE_FLOOR));
    assertEquals(Verdict.SLOWER, Intervals.verdict(exact, true, TrialStats.NOISE_FLOOR));
  }

  /** Two variants whose trials spread alike: the half-width an A/A pair of them would get, t(2) = 4.302653. */
  @Test
  void theResolutionIsAnAaPairsHalfWidthFromTheVariantsSpread() {
    double[] a = {100, 110, 90};
    double[] logs = Arrays.stream(a).map(Math::log).toArray();
    double mean = Arrays.stream(logs).average().orElseThrow();
    double sd = Math.sqrt(Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / 2);
    double expected = Math.expm1(4.302653 * sd * Math.sqrt(2.0 / 3));
    assertEquals(expected, TrialStats.resolution(new double[][] {a, {200, 220, 180}}), 1e-5);
    assertTrue(Double.isNaN(TrialStats.resolution(new double[][] {{100}})), "one trial: none");
  }

  /** Variants that drift together: pairing takes the drift out, the unpaired spread keeps it. */
  @Test
  void thePairedResolutionIsThePairsOwnHalfWidth() {
    double[] a = {100, 140, 80, 120};
    double[] b = {103, 139, 83, 121};
    Interval pair = TrialStats.pairedRatio(a, b);
    double paired = TrialStats.pairedResolution(new double[][] {a, b});
    assertEquals(pair.hi() / pair.mid() - 1, paired, 1e-9);
    assertTrue(paired < TrialStats.resolution(new double[][] {a, b}) / 3, paired + " paired");
    assertEquals(0, TrialStats.pairedResolution(new double[][] {a, Arrays.stream(a).map(x -> 2 * x).toArray()}), 1e-12,
        "a constant ratio: no noise in the pair");
    assertTrue(Double.isNaN(TrialStats.pairedResolution(new double[][] {a})), "one variant: none");
  }
}
