package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateScheduleTest {

  @Test
  void aConstantRateSpacesCallsEvenly() {
    RateSchedule s = new RateSchedule(0, 4_000, Duration.ZERO, Duration.ofSeconds(10));
    assertEquals(40_000, s.totalCalls());
    assertEquals(0, s.rampCalls());
    assertEquals(0, s.dueNanos(0));
    assertEquals(250_000, s.dueNanos(1));
    assertEquals(9_999_750_000L, s.dueNanos(39_999));
    assertFalse(s.inRamp(0));
  }

  @Test
  void aRampOffersTheAreaUnderItsLineThenTheRate() {
    // 1,000 -> 3,000 calls/s over 2 s: 4,000 ramp calls, then 3,000/s for 5 s.
    RateSchedule s = new RateSchedule(1_000, 3_000, Duration.ofSeconds(2), Duration.ofSeconds(5));
    assertEquals(4_000, s.rampCalls());
    assertEquals(19_000, s.totalCalls());
    assertTrue(s.inRamp(3_999));
    assertFalse(s.inRamp(4_000));
    assertEquals(2_000_000_000L, s.dueNanos(4_000));
    // After 1 s the ramp has offered 1,000 + 1,000/2 = 1,500 calls.
    assertEquals(1_000_000_000L, s.dueNanos(1_500), 1_000);
    long previous = -1;
    for (long k = 0; k < s.totalCalls(); k++) {
      long due = s.dueNanos(k);
      assertTrue(due > previous, "due times increase: " + k);
      previous = due;
    }
    // The calls due in each 100 ms of the ramp follow its rate: 1,100/s around 0.05 s, 2,900/s around 1.95 s.
    assertEquals(105, callsBetween(s, 0, 100_000_000L), 1);
    assertEquals(295, callsBetween(s, 1_900_000_000L, 2_000_000_000L), 1);
  }

  @Test
  void aRampFromNothingStartsAtOnce() {
    RateSchedule s = new RateSchedule(0, 2_000, Duration.ofSeconds(1), Duration.ofSeconds(1));
    assertEquals(1_000, s.rampCalls());
    assertEquals(0, s.dueNanos(0));
    // Half the ramp's calls are due at 1/sqrt(2) of it.
    assertEquals(Math.round(1e9 / Math.sqrt(2)), s.dueNanos(500), 1_000);
  }

  private static long callsBetween(RateSchedule s, long from, long to) {
    long n = 0;
    for (long k = 0; k < s.totalCalls(); k++) {
      long due = s.dueNanos(k);
      if (due >= from && due < to) {
        n++;
      }
    }
    return n;
  }
}
