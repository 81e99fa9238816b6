package protocols.rpc;

import java.time.Duration;

/**
 * When each call of an open-model level is due, as an offset from the level's start: a linear ramp
 * from {@code fromRate} to {@code rate} over {@code ramp} (not measured), then {@code rate} for
 * {@code duration}. Call {@code k} is due when the calls offered so far reach {@code k}, so the
 * schedule is exact to the nanosecond, whatever the injector manages.
 */
public record RateSchedule(double fromRate, double rate, Duration ramp, Duration duration) {

  public RateSchedule {
    if (!(rate > 0) || fromRate < 0) {
      throw new IllegalArgumentException("a rate must be positive: " + fromRate + " -> " + rate);
    }
  }

  /** Calls due during the ramp. */
  public long rampCalls() {
    return (long) Math.floor((fromRate + rate) / 2 * seconds(ramp));
  }

  /** Every call of the level, ramp included. */
  public long totalCalls() {
    return rampCalls() + (long) Math.floor(rate * seconds(duration));
  }

  public boolean inRamp(long k) {
    return k < rampCalls();
  }

  /** When call {@code k} (from 0) is due, in ns from the level's start. */
  public long dueNanos(long k) {
    long rampCalls = rampCalls();
    if (k >= rampCalls) {
      return ramp.toNanos() + Math.round((k - rampCalls) * 1e9 / rate);
    }
    // Offered so far at t: a*t + c*t^2/2 with c = (b - a) / T; solved for t.
    double a = fromRate;
    double c = (rate - fromRate) / seconds(ramp);
    double t = Math.abs(c) < 1e-9 ? k / a : (Math.sqrt(Math.max(0, a * a + 2 * c * k)) - a) / c;
    return Math.round(t * 1e9);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
