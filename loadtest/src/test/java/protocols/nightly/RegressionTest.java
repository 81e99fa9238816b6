package protocols.nightly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.nightly.Regression.Better;
import protocols.nightly.Regression.Noise;

class RegressionTest {
  /** The gates on the history alone (no windows' noise), one earlier night enough. */
  private static final Regression.Rule HIGHER = new Regression.Rule(7, 0.10, 1, Better.HIGHER);
  private static final Regression.Rule LOWER = new Regression.Rule(7, 0.10, 1, Better.LOWER);
  private static final Noise NONE = Noise.NONE;
  private static final List<Double> FLAT = List.of(10_000.0, 10_250.0, 9_800.0, 10_100.0, 9_900.0, 10_050.0, 9_950.0);

  @Test
  void aNightWithinTheHistorysNoisePasses() {
    assertTrue(Regression.judge("calls/s", 9_700, FLAT, NONE, HIGHER).passed());
    assertTrue(Regression.judge("p99 µs", 1_080, List.of(1_000.0, 1_050.0, 980.0, 1_020.0), NONE, LOWER)
        .passed());
  }

  @Test
  void oneNoisyNightInTheHistoryDoesNotMoveTheBaseline() {
    List<Double> noisy = List.of(10_000.0, 10_250.0, 9_800.0, 4_000.0, 9_900.0, 10_050.0, 9_950.0);
    Regression.Verdict v = Regression.judge("calls/s", 9_600, noisy, NONE, HIGHER);
    assertTrue(v.passed(), v.message());
    assertEquals(9_950, v.baseline(), 1e-9);
  }

  @Test
  void aTwentyPercentDropInThroughputFails() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, FLAT, NONE, HIGHER);
    assertFalse(v.passed(), v.message());
    // FLAT: median 10,000, MAD 100 (spread 1.48%) over 7 nights: t(6) = 2.447 on sqrt(1 + 1/7) x 1.48%
    double half = 2.446912 * Math.sqrt(8.0 / 7) * 1.4826 * 100 / 10_000;
    assertEquals(0.8 * Math.exp(half), v.ratio().hi(), 1e-4);
    assertEquals("calls/s 8,000 vs 10,000 (median of 7 nights): 0.80 [0.77, 0.83], a regression wholly under 0.91",
        v.message());
  }

  @Test
  void aDoubledP99Fails() {
    Regression.Verdict v = Regression.judge("p99 µs", 2_000, List.of(1_000.0, 1_100.0, 950.0), NONE, LOWER);
    assertFalse(v.passed(), v.message());
  }

  @Test
  void aNoisyHistoryWidensTheInterval() {
    List<Double> wide = List.of(10_000.0, 13_000.0, 7_000.0, 12_000.0, 8_000.0);
    assertEquals(1.4826 * 2_000 / 10_000, Regression.spread(wide), 1e-12);
    Regression.Verdict v = Regression.judge("calls/s", 8_000, wide, NONE, HIGHER);
    assertTrue(v.passed(), v.message());
    assertTrue(v.ratio().hi() > 1, "a 20% drop is inside this history's own swing: " + v.message());
  }

  @Test
  void aWarnedLevelFailsOnlyOnAChangeTwiceAsFar() {
    Regression.Rule warnedHigher = HIGHER.forWarnedLevel(); // 10% floor: wholly under 1/2.2 (0.4545) of the baseline
    assertTrue(Regression.judge("calls/s", 8_000, FLAT, NONE, warnedHigher).passed(), "a 20% drop on a busy machine");
    assertTrue(Regression.judge("calls/s", 4_600, FLAT, NONE, warnedHigher).passed());
    assertFalse(Regression.judge("calls/s", 4_200, FLAT, NONE, warnedHigher).passed());
    assertFalse(Regression.judge("calls/s", 100, FLAT, NONE, warnedHigher).passed(), "a collapse fails all the same");
    Regression.Rule warnedLower = LOWER.forWarnedLevel(); // 10% floor: wholly over 2.2 x the baseline
    List<Double> p99s = List.of(1_000.0, 1_000.0, 1_000.0);
    assertTrue(Regression.judge("p99 µs", 2_000, p99s, NONE, warnedLower).passed());
    assertFalse(Regression.judge("p99 µs", 2_600, p99s, NONE, warnedLower).passed());
  }

  @Test
  void aLevelWhoseSecondsSwingWildlyStillFailsACollapse() {
    // NightlyIT's slowed night: 1-second windows swinging 71% over 10 s, the nights before 30% over 4 s.
    Noise swinging = Regression.noise(0.71, 10, 0.30, 4);
    List<Double> history = List.of(630.0, 640.0);
    Regression.Verdict plain = Regression.judge("calls/s", 4.8, history, swinging, HIGHER);
    assertFalse(plain.passed(), plain.message());
    assertFalse(Regression.judge("calls/s", 4.8, history, swinging, HIGHER.forWarnedLevel()).passed());
    assertTrue(Regression.judge("calls/s", 400, history, swinging, HIGHER.forWarnedLevel()).passed(),
        "with that noise a fall to two thirds is not shown to be one");
    assertFalse(Regression.judge("p99 µs", 50_000, List.of(1_000.0, 1_000.0), swinging, LOWER.forWarnedLevel())
        .passed(), "a p99 fifty times as high");
  }

  @Test
  void noHistoryPassesAndSaysSo() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, List.of(), NONE, HIGHER);
    assertTrue(v.passed());
    assertFalse(v.compared());
    assertEquals("calls/s 8,000: no earlier night to compare with", v.message());
  }

  @Test
  void onlyTheLastNightsCount() {
    List<Double> history = List.of(20_000.0, 20_000.0, 20_000.0, 10_000.0, 10_100.0, 9_900.0);
    Regression.Verdict recent = Regression.judge("calls/s", 9_800, history, NONE,
        new Regression.Rule(3, 0.10, 1, Better.HIGHER));
    assertTrue(recent.passed(), recent.message());
    assertEquals(10_000, recent.baseline(), 1e-9);
    assertEquals(15_050, Regression.judge("calls/s", 9_800, history, NONE,
        new Regression.Rule(6, 0.10, 1, Better.HIGHER)).baseline(), 1e-9);
  }

  @Test
  void aRegressionAgainstOneEarlierNightIsReportedAndFailsFromTheSecond() {
    Regression.Rule rule = new Regression.Rule(7, 0.10, 2, Better.HIGHER);
    Regression.Verdict one = Regression.judge("calls/s", 8_600, List.of(10_000.0), NONE, rule);
    assertTrue(one.passed(), one.message());
    assertTrue(one.message().endsWith("; reported only: 1 earlier night, 2 needed before a regression can fail the"
        + " build"), one.message());
    Regression.Verdict two = Regression.judge("calls/s", 8_000, List.of(10_000.0, 10_100.0), NONE, rule);
    assertFalse(two.passed(), two.message());
  }

  @Test
  void aLevelWhoseSecondsSwingWidelyGetsAWiderInterval() {
    // 5 one-second windows spreading 30% tonight and before: a 20% drop is within their noise.
    Noise noisy = Regression.noise(0.30, 5, 0.30, 5);
    assertEquals(0.30 / Math.sqrt(5), noisy.tonight(), 1e-12);
    assertTrue(Regression.judge("calls/s", 8_000, FLAT, noisy, HIGHER).passed());
    assertFalse(Regression.judge("calls/s", 8_000, FLAT, Regression.noise(0.02, 15, 0.02, 15), HIGHER).passed(),
        "a quiet level's 20% drop still fails");
  }

  /** Two nights tell no spread: the baseline's uncertainty is then its windows', as the compare command's is. */
  @Test
  void fewerThanThreeNightsAreJudgedByTheirWindows() {
    Noise quiet = Regression.noise(0.05, 10, 0.05, 10);
    Regression.Verdict two = Regression.judge("calls/s", 8_000, List.of(10_000.0, 12_000.0), quiet, HIGHER);
    assertFalse(two.passed(), two.message()); // 0.73 [0.69, 0.77]: the two nights' 20% apart is not its width
    Regression.Verdict three = Regression.judge("calls/s", 8_000, List.of(10_000.0, 12_000.0, 11_000.0), quiet, HIGHER);
    assertTrue(three.passed(), three.message()); // from three nights on, their own spread widens it
  }
}
