package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AutoRatesTest {

  /** The rates tried against a framework that keeps up with anything up to {@code capacity}. */
  private static List<Integer> search(int start, int capacity, int maxLevels) {
    AutoRates auto = new AutoRates("test", start);
    List<Integer> tried = new ArrayList<>();
    OptionalInt next = auto.nextRate();
    while (next.isPresent() && tried.size() < maxLevels) {
      int rate = next.getAsInt();
      tried.add(rate);
      auto.judged(rate, rate > capacity);
      next = auto.nextRate();
    }
    return tried;
  }

  @Test
  void doublesUntilSaturatedThenHalvesTheGap() {
    assertEquals(List.of(1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 24_000, 28_000, 26_000),
        search(1_000, 27_000, 12));
  }

  @Test
  void stopsWithinAnEighthOfTheHighestUnsaturatedRate() {
    List<Integer> tried = search(500, 5_100, 20);
    int ok = tried.stream().filter(r -> r <= 5_100).max(Integer::compare).orElseThrow();
    int saturated = tried.stream().filter(r -> r > 5_100).min(Integer::compare).orElseThrow();
    assertTrue(saturated - ok <= AutoRates.RESOLUTION * ok, tried.toString());
    assertTrue(tried.size() <= 12, tried.toString());
  }

  @Test
  void aSaturatedStartEndsTheSearch() {
    assertEquals(List.of(1_000), search(1_000, 500, 12));
  }

  @Test
  void roundsMidpointsToTwoDigits() {
    assertEquals(24_000, AutoRates.roundTo2Digits(24_000));
    assertEquals(2_600, AutoRates.roundTo2Digits(2_625));
    assertEquals(87, AutoRates.roundTo2Digits(87));
  }
}
