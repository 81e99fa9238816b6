package protocols.nightly;

import java.util.ArrayList;
import java.util.List;

/**
 * Tonight's figure against the previous nights': the baseline is the median of the last nights, and
 * the margin is noise-aware: three robust standard deviations of those nights (1.4826 x the median
 * absolute deviation, relative to the median), and never less than a floor. A flat history within
 * noise, or one odd night among them, moves neither the median nor the deviation much; a 20% drop
 * against a history that varies by 2-3% is far outside both.
 */
public final class Regression {
  /** What one gate made of one figure. */
  public record Verdict(boolean passed, boolean compared, double baseline, double margin, String message) {
  }

  /** Which way is worse. */
  public enum Better { HIGHER, LOWER }

  private Regression() {}

  public static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The relative margin for {@code history}: max(floor, 3 x 1.4826 x MAD / median). */
  public static double margin(List<Double> history, double floor) {
    double median = median(history);
    if (median <= 0) {
      return floor;
    }
    List<Double> deviations = history.stream().map(v -> Math.abs(v - median)).toList();
    double sigma = 1.4826 * median(deviations) / median;
    return Math.max(floor, 3 * sigma);
  }

  /**
   * @param what e.g. "calls/s" or "p99 µs"
   * @param tonight this run's figure
   * @param history the previous nights' figures, oldest first; only the last {@code nights} count
   * @param floor the smallest relative margin, e.g. 0.10
   */
  public static Verdict judge(String what, double tonight, List<Double> history, int nights, double floor,
                              Better better) {
    if (history.isEmpty()) {
      return new Verdict(true, false, Double.NaN, Double.NaN, what + " " + fmt(tonight)
          + ": no earlier night to compare with");
    }
    List<Double> last = history.subList(Math.max(0, history.size() - nights), history.size());
    double baseline = median(last);
    double margin = margin(last, floor);
    double change = baseline == 0 ? 0 : (tonight - baseline) / baseline;
    boolean worse = better == Better.HIGHER ? change < -margin : change > margin;
    String message = String.format("%s %s vs %s (median of %d night%s): %+.1f%%, allowed %s%.1f%%", what,
        fmt(tonight), fmt(baseline), last.size(), last.size() == 1 ? "" : "s", 100 * change,
        better == Better.HIGHER ? "-" : "+", 100 * margin);
    return new Verdict(!worse, true, baseline, margin, message);
  }

  static String fmt(double v) {
    return Math.abs(v) >= 100 ? String.format("%,.0f", v) : String.format("%.1f", v);
  }
}
