package protocols.stats;

/**
 * A figure and its 95% interval: {@code mid} within [{@code lo}, {@code hi}], and how the interval was
 * made (shown beside it: an interval from one run's 1-second windows is not one over repeated trials).
 */
public record Interval(double lo, double mid, double hi, String method) {
  public boolean contains(double x) {
    return lo <= x && x <= hi;
  }

  /** {@code [lo, hi]} with {@code decimals} decimals, as the console and the pages show it. */
  public String bounds(int decimals) {
    return "[" + Numbers.fmt(lo, decimals) + ", " + Numbers.fmt(hi, decimals) + "]";
  }

  /** {@code mid [lo, hi]}, or {@code mid (no interval)} when there is none (a figure measured once). */
  public String withBounds(int decimals) {
    return Numbers.fmt(mid, decimals) + (hasBounds() ? " " + bounds(decimals) : " (no interval)");
  }

  /** Whether it has bounds: a figure measured once has only its middle. */
  public boolean hasBounds() {
    return !Double.isNaN(lo) && !Double.isNaN(hi);
  }

  /** Half the interval's width over its middle: the ± a reader sees. */
  public double relativeHalfWidth() {
    return mid == 0 ? Double.NaN : (hi - lo) / 2 / Math.abs(mid);
  }
}
