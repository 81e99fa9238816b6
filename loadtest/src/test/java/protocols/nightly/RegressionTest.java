package protocols.nightly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.nightly.Regression.Better;

class RegressionTest {
  /** The gates as they were before the run's own noise and the nights needed: history alone. */
  private static final Regression.Rule HIGHER = new Regression.Rule(7, 0.10, 1, Better.HIGHER);
  private static final Regression.Rule LOWER = new Regression.Rule(7, 0.10, 1, Better.LOWER);
  private static final List<Double> FLAT = List.of(10_000.0, 10_250.0, 9_800.0, 10_100.0, 9_900.0, 10_050.0, 9_950.0);

  @Test
  void aNightWithinTheHistorysNoisePasses() {
    assertTrue(Regression.judge("calls/s", 9_700, FLAT, 0, HIGHER).passed());
    assertTrue(Regression.judge("p99 µs", 1_080, List.of(1_000.0, 1_050.0, 980.0, 1_020.0), 0, LOWER)
        .passed());
  }

  @Test
  void oneNoisyNightInTheHistoryDoesNotMoveTheBaseline() {
    List<Double> noisy = List.of(10_000.0, 10_250.0, 9_800.0, 4_000.0, 9_900.0, 10_050.0, 9_950.0);
    Regression.Verdict v = Regression.judge("calls/s", 9_600, noisy, 0, HIGHER);
    assertTrue(v.passed(), v.message());
    assertEquals(9_950, v.baseline(), 1e-9);
  }

  @Test
  void aTwentyPercentDropInThroughputFails() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, FLAT, 0, HIGHER);
    assertFalse(v.passed(), v.message());
    assertTrue(v.message().startsWith("calls/s 8,000 vs 10,000 (median of 7 nights): -20.0%, allowed -9.1%"),
        v.message());
  }

  @Test
  void aDoubledP99Fails() {
    Regression.Verdict v = Regression.judge("p99 µs", 2_000, List.of(1_000.0, 1_100.0, 950.0), 0, LOWER);
    assertFalse(v.passed(), v.message());
  }

  @Test
  void theMarginWidensWithAnoisyHistory() {
    List<Double> wide = List.of(10_000.0, 13_000.0, 7_000.0, 12_000.0, 8_000.0);
    double margin = Regression.margin(wide, 0.10);
    assertTrue(margin > 0.3, "margin " + margin);
    assertTrue(Regression.judge("calls/s", 8_000, wide, 0, HIGHER).passed());
  }

  @Test
  void aWarnedLevelFailsOnlyOnAChangeTwiceAsFar() {
    Regression.Rule warnedHigher = HIGHER.forWarnedLevel(); // 10% floor: fails below 1/2.2 (45.5%) of the baseline
    assertTrue(Regression.judge("calls/s", 8_000, FLAT, 0, warnedHigher).passed(), "a 20% drop on a busy machine");
    assertTrue(Regression.judge("calls/s", 4_600, FLAT, 0, warnedHigher).passed());
    assertFalse(Regression.judge("calls/s", 4_400, FLAT, 0, warnedHigher).passed());
    assertFalse(Regression.judge("calls/s", 100, FLAT, 0, warnedHigher).passed(), "a collapse fails all the same");
    Regression.Rule warnedLower = LOWER.forWarnedLevel(); // 10% floor: fails above 2.2 x the baseline
    List<Double> p99s = List.of(1_000.0, 1_000.0, 1_000.0);
    assertTrue(Regression.judge("p99 µs", 2_000, p99s, 0, warnedLower).passed());
    assertFalse(Regression.judge("p99 µs", 2_600, p99s, 0, warnedLower).passed());
  }

  @Test
  void aMarginOfAHundredPercentOrMoreStillFailsACollapse() {
    // A night whose 1-second windows swing 71% asks a noise margin over 100% (NightlyIT, 1 s a call): a margin
    // taken as a difference allowed calls/s -100%, so 4.8 against 630 passed.
    List<Double> history = List.of(630.0, 640.0, 620.0);
    Regression.Verdict plain = Regression.judge("calls/s", 4.8, history, 1.5, HIGHER);
    assertFalse(plain.passed(), plain.message());
    assertTrue(plain.message().endsWith("allowed -60.0%"), plain.message());
    Regression.Verdict warned = Regression.judge("calls/s", 4.8, history, 1.5, HIGHER.forWarnedLevel());
    assertFalse(warned.passed(), warned.message());
    assertTrue(Regression.judge("calls/s", 200, history, 1.5, HIGHER.forWarnedLevel()).passed(),
        "a warned level with that noise allows a fall to 1/5");
    assertFalse(Regression.judge("p99 µs", 2_600, List.of(1_000.0, 1_000.0), 1.5, LOWER).passed(),
        "p99 keeps its margin as a rise: +160% over +150%");
  }

  @Test
  void noHistoryPassesAndSaysSo() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, List.of(), 0, HIGHER);
    assertTrue(v.passed());
    assertFalse(v.compared());
    assertEquals("calls/s 8,000: no earlier night to compare with", v.message());
  }

  @Test
  void onlyTheLastNightsCount() {
    List<Double> history = List.of(20_000.0, 20_000.0, 20_000.0, 10_000.0, 10_100.0, 9_900.0);
    Regression.Verdict recent = Regression.judge("calls/s", 9_800, history, 0,
        new Regression.Rule(3, 0.10, 1, Better.HIGHER));
    assertTrue(recent.passed(), recent.message());
    assertEquals(10_000, recent.baseline(), 1e-9);
    assertEquals(15_050, Regression.judge("calls/s", 9_800, history, 0,
        new Regression.Rule(6, 0.10, 1, Better.HIGHER)).baseline(), 1e-9);
  }

  @Test
  void aRegressionAgainstOneEarlierNightIsReportedAndFailsFromTheSecond() {
    Regression.Rule rule = new Regression.Rule(7, 0.10, 2, Better.HIGHER);
    Regression.Verdict one = Regression.judge("calls/s", 8_600, List.of(10_000.0), 0, rule);
    assertTrue(one.passed(), one.message());
    assertTrue(one.message().endsWith("; reported only: 1 earlier night, 2 needed before a regression can fail the"
        + " build"), one.message());
    Regression.Verdict two = Regression.judge("calls/s", 8_000, List.of(10_000.0, 10_100.0), 0, rule);
    assertFalse(two.passed(), two.message());
  }

  @Test
  void aLevelWhoseSecondsSwingWidelyGetsAWiderMargin() {
    // 5 one-second windows spreading 30% tonight and before: a 20% drop is within their noise.
    double noise = Regression.noise(0.30, 5, 0.30, 5);
    assertEquals(3 * Math.sqrt(2 * 0.09 / 5), noise, 1e-9);
    Regression.Rule rule = HIGHER;
    assertTrue(Regression.judge("calls/s", 8_000, FLAT, noise, rule).passed());
    assertFalse(Regression.judge("calls/s", 8_000, FLAT, Regression.noise(0.02, 15, 0.02, 15), rule).passed(),
        "a quiet level's 20% drop still fails");
  }
}
