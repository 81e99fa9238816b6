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
   * How a gate judges: the last {@code nights} comparable nights, the smallest relative margin
   * {@code floor} (e.g. 0.10), how many earlier nights a regression needs before it can fail the build
   * ({@code minNights}: fewer, and it is reported only), and which way is better.
   */
  public record Rule(int nights, double floor, int minNights, Better better, boolean warned) {
    public Rule(int nights, double floor, int minNights, Better better) {
      this(nights, floor, minNights, better, false);
    }

    /**
     * The same rule for a level its run warns about (a busy machine, no steady state): its margin is
     * {@code 1 + 2m}, so tonight/baseline must leave [1/2.2, 2.2] to fail at a 10% margin. A drop to 1% is
     * no artefact of a shared machine; a drop of 20% could be.
     */
    public Rule forWarnedLevel() {
      return new Rule(nights, floor, minNights, better, true);
    }

    double widen(double margin) {
      return warned ? 1 + 2 * margin : margin;
    }
  }

  /**
   * The change a margin allows, taken as a ratio both ways: tonight/baseline may rise to {@code 1 + m}
   * (p99) or fall to {@code 1 / (1 + m)} (calls/s). So a margin of 100% or more still fails a collapse:
   * a margin taken as a difference would allow calls/s any drop.
   */
  static double allowedChange(double margin, Better better) {
    return better == Better.HIGHER ? -margin / (1 + margin) : margin;
  }

  /**
   * @param what e.g. "calls/s" or "p99 µs"
   * @param tonight this run's figure
   * @param history the previous comparable nights' figures, oldest first; only the last {@code rule.nights()} count
   * @param noise the relative margin the runs' own noise asks for (tonight's and the baseline's 1-second
   *     windows, see {@link #noise}); 0 to judge on the history alone
   */
  public static Verdict judge(String what, double tonight, List<Double> history, double noise, Rule rule) {
    if (history.isEmpty()) {
      return new Verdict(true, false, Double.NaN, Double.NaN, what + " " + fmt(tonight)
          + ": no earlier night to compare with");
    }
    List<Double> last = history.subList(Math.max(0, history.size() - rule.nights()), history.size());
    double baseline = median(last);
    double margin = rule.widen(Math.max(margin(last, rule.floor()), noise));
    double change = baseline == 0 ? 0 : (tonight - baseline) / baseline;
    double allowed = allowedChange(margin, rule.better());
    boolean worse = rule.better() == Better.HIGHER ? change < allowed : change > allowed;
    boolean enough = last.size() >= rule.minNights();
    String message = String.format("%s %s vs %s (median of %d night%s): %+.1f%%, allowed %+.1f%%", what,
        fmt(tonight), fmt(baseline), last.size(), last.size() == 1 ? "" : "s", 100 * change, 100 * allowed)
        + (worse && !enough ? "; reported only: " + last.size() + " earlier night" + (last.size() == 1 ? "" : "s")
        + ", " + rule.minNights() + " needed before a regression can fail the build" : "");
    return new Verdict(!(worse && enough), true, baseline, margin, message);
  }

  /**
   * The margin two runs' own noise asks for: three standard errors of the difference of their means,
   * each run's error being its 1-second windows' spread (standard deviation over mean) over the square
   * root of their number. A level whose seconds swing widely cannot tell a small regression from luck.
   */
  public static double noise(double spreadTonight, int windowsTonight, double spreadBefore, int windowsBefore) {
    double a = windowsTonight > 0 ? spreadTonight / Math.sqrt(windowsTonight) : 0;
    double b = windowsBefore > 0 ? spreadBefore / Math.sqrt(windowsBefore) : 0;
    return 3 * Math.sqrt(a * a + b * b);
  }

  static String fmt(double v) {
    return Math.abs(v) >= 100 ? String.format("%,.0f", v) : String.format("%.1f", v);
  }
}
