package protocols.nightly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.nightly.Regression.Better;

class RegressionTest {
  private static final List<Double> FLAT = List.of(10_000.0, 10_250.0, 9_800.0, 10_100.0, 9_900.0, 10_050.0, 9_950.0);

  @Test
  void aNightWithinTheHistorysNoisePasses() {
    assertTrue(Regression.judge("calls/s", 9_700, FLAT, 7, 0.10, Better.HIGHER).passed());
    assertTrue(Regression.judge("p99 µs", 1_080, List.of(1_000.0, 1_050.0, 980.0, 1_020.0), 7, 0.10, Better.LOWER)
        .passed());
  }

  @Test
  void oneNoisyNightInTheHistoryDoesNotMoveTheBaseline() {
    List<Double> noisy = List.of(10_000.0, 10_250.0, 9_800.0, 4_000.0, 9_900.0, 10_050.0, 9_950.0);
    Regression.Verdict v = Regression.judge("calls/s", 9_600, noisy, 7, 0.10, Better.HIGHER);
    assertTrue(v.passed(), v.message());
    assertEquals(9_950, v.baseline(), 1e-9);
  }

  @Test
  void aTwentyPercentDropInThroughputFails() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, FLAT, 7, 0.10, Better.HIGHER);
    assertFalse(v.passed(), v.message());
    assertTrue(v.message().startsWith("calls/s 8,000 vs 10,000 (median of 7 nights): -20.0%, allowed -10.0%"),
        v.message());
  }

  @Test
  void aDoubledP99Fails() {
    Regression.Verdict v = Regression.judge("p99 µs", 2_000, List.of(1_000.0, 1_100.0, 950.0), 7, 0.10, Better.LOWER);
    assertFalse(v.passed(), v.message());
  }

  @Test
  void theMarginWidensWithAnoisyHistory() {
    List<Double> wide = List.of(10_000.0, 13_000.0, 7_000.0, 12_000.0, 8_000.0);
    double margin = Regression.margin(wide, 0.10);
    assertTrue(margin > 0.3, "margin " + margin);
    assertTrue(Regression.judge("calls/s", 8_000, wide, 7, 0.10, Better.HIGHER).passed());
  }

  @Test
  void noHistoryPassesAndSaysSo() {
    Regression.Verdict v = Regression.judge("calls/s", 8_000, List.of(), 7, 0.10, Better.HIGHER);
    assertTrue(v.passed());
    assertFalse(v.compared());
    assertEquals("calls/s 8,000: no earlier night to compare with", v.message());
  }

  @Test
  void onlyTheLastNightsCount() {
    List<Double> history = List.of(20_000.0, 20_000.0, 20_000.0, 10_000.0, 10_100.0, 9_900.0);
    Regression.Verdict recent = Regression.judge("calls/s", 9_800, history, 3, 0.10, Better.HIGHER);
    assertTrue(recent.passed(), recent.message());
    assertEquals(10_000, recent.baseline(), 1e-9);
    assertEquals(15_050, Regression.judge("calls/s", 9_800, history, 6, 0.10, Better.HIGHER).baseline(), 1e-9);
  }
}
