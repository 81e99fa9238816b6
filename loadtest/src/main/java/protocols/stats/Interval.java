package protocols.stats;

/**
 * A figure and its 95% interval: {@code mid} within [{@code lo}, {@code hi}], and how the interval was
 * made (shown beside it: an interval from one run's 1-second windows is not one over repeated trials).
 */
public record Interval(double lo, double mid, double hi, String method) {
  public boolean contains(double x) {
    return lo <= x && x <= hi;
  }

  /** Half the interval's width over its middle: the ± a reader sees. */
  public double relativeHalfWidth() {
    return mid == 0 ? Double.NaN : (hi - lo) / 2 / Math.abs(mid);
  }
}
