package protocols.nightly;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import protocols.stats.Interval;
import protocols.stats.Intervals;

/**
 * Tonight's figure against the previous nights', with the statistics of the lab's comparisons
 * (docs/trials.md, docs/comparing-runs.md): tonight over the baseline (the median of the last nights)
 * as a ratio with a 95% interval, and a regression only where the whole interval lies beyond the
 * gate's floor. The baseline's uncertainty is the nights' own spread (1.4826 x their median absolute
 * deviation over their median: a new night differs from the median by about that) from three nights
 * on, or the baseline nights' 1-second windows where that is larger or there are fewer nights; tonight's
 * is its own windows'; Student's t on Welch's degrees of freedom. A flat history, or one odd night among
 * them, moves neither the median nor the spread much; a 20% drop against nights within 2-3% fails.
 */
public final class Regression {
  /** What one gate made of one figure. */
  public record Verdict(boolean passed, boolean compared, double baseline, Interval ratio, double threshold,
                        String message) {
  }

  /**
   * The runs' own noise: each side's relative standard error (its 1-second windows' spread, standard
   * deviation over mean, over the square root of their number) and its windows.
   */
  public record Noise(double tonight, int tonightWindows, double before, int beforeWindows) {
    /** No windows' noise: the history alone. */
    public static final Noise NONE = new Noise(0, 0, 0, 0);
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

  /** The nights' relative spread: 1.4826 x their median absolute deviation over their median (0 for one night). */
  public static double spread(List<Double> history) {
    double median = median(history);
    if (median <= 0) {
      return 0;
    }
    List<Double> deviations = history.stream().map(v -> Math.abs(v - median)).toList();
    return 1.4826 * median(deviations) / median;
  }

  /** Nights from which their spread is taken as the baseline's uncertainty; with fewer, their windows'. */
  static final int NIGHTS_FOR_A_SPREAD = 3;

  /**
   * How a gate judges: the last {@code nights} comparable nights, the floor a regression's interval
   * must pass wholly ({@code floor}, e.g. 0.10), how many earlier nights a regression needs before it can fail the build
   * ({@code minNights}: fewer, and it is reported only), and which way is better.
   */
  public record Rule(int nights, double floor, int minNights, Better better, boolean warned) {
    public Rule(int nights, double floor, int minNights, Better better) {
      this(nights, floor, minNights, better, false);
    }

    /**
     * The same rule for a level its run warns about (a busy machine, no steady state): its floor is
     * {@code 1 + 2f}, so tonight/baseline must leave [1/2.2, 2.2] wholly to fail at a 10% floor. A drop to
     * 1% is no artefact of a shared machine; a drop of 20% could be.
     */
    public Rule forWarnedLevel() {
      return new Rule(nights, floor, minNights, better, true);
    }

    double widen(double floor) {
      return warned ? 1 + 2 * floor : floor;
    }
  }

  /**
   * The ratio tonight/baseline a regression's interval must pass wholly: under {@code 1 / (1 + floor)}
   * for calls/s, over {@code 1 + floor} for p99. A ratio both ways, so a floor of 100% or more still
   * fails a collapse.
   */
  static double threshold(double floor, Better better) {
    return better == Better.HIGHER ? 1 / (1 + floor) : 1 + floor;
  }

  /**
   * @param what e.g. "calls/s" or "p99 µs"
   * @param tonight this run's figure
   * @param history the previous comparable nights' figures, oldest first; only the last {@code rule.nights()} count
   * @param noise the runs' own noise, from their 1-second windows ({@link #noise}); {@link Noise#NONE} for
   *     the history alone
   */
  public static Verdict judge(String what, double tonight, List<Double> history, Noise noise, Rule rule) {
    if (history.isEmpty()) {
      return new Verdict(true, false, Double.NaN, null, Double.NaN, what + " " + fmt(tonight)
          + ": no earlier night to compare with");
    }
    List<Double> last = history.subList(Math.max(0, history.size() - rule.nights()), history.size());
    int n = last.size();
    double baseline = median(last);
    Interval interval = ratio(tonight, baseline, last, noise);
    double threshold = threshold(rule.widen(rule.floor()), rule.better());
    boolean worse = rule.better() == Better.HIGHER ? interval.hi() < threshold : interval.lo() > threshold;
    boolean enough = n >= rule.minNights();
    String message = String.format(Locale.ROOT, "%s %s vs %s (median of %d night%s): %.2f [%.2f, %.2f], a regression"
        + " wholly %s %.2f", what, fmt(tonight), fmt(baseline), n, n == 1 ? "" : "s", interval.mid(), interval.lo(),
        interval.hi(), rule.better() == Better.HIGHER ? "under" : "over", threshold)
        + (worse && !enough ? "; reported only: " + n + " earlier night" + (n == 1 ? "" : "s")
        + ", " + rule.minNights() + " needed before a regression can fail the build" : "");
    return new Verdict(!(worse && enough), true, baseline, interval, threshold, message);
  }

  /** tonight/baseline with its 95% interval, on the log scale (a collapse to 0 has none: its interval is the point). */
  static Interval ratio(double tonight, double baseline, List<Double> nights, Noise noise) {
    double r = baseline > 0 ? tonight / baseline : 1;
    int n = nights.size();
    double a = noise.tonight();
    double dfA = Math.max(1, noise.tonightWindows() - 1);
    double b = noise.before();
    double dfB = Math.max(1, noise.beforeWindows() - 1);
    double spread = n >= NIGHTS_FOR_A_SPREAD ? spread(nights) * Math.sqrt(1 + 1.0 / n) : 0;
    if (spread > b) {
      b = spread;
      dfB = n - 1;
    }
    String method = "median of " + n + " night" + (n == 1 ? "" : "s");
    if (r <= 0 || baseline <= 0 || a == 0 && b == 0) {
      return new Interval(r, r, r, method + ", no spread");
    }
    // Tonight's figure against the nights' median, not two means: the method says so.
    return Intervals.ratio(new Intervals.Estimate(baseline, b * baseline, dfB, method),
        new Intervals.Estimate(tonight, a * tonight, dfA, "tonight"), method);
  }

  /**
   * The runs' own noise: tonight's 1-second windows ({@code spreadTonight}, standard deviation over
   * mean, of {@code windowsTonight}) and the baseline nights' (their median spread and windows).
   */
  public static Noise noise(double spreadTonight, int windowsTonight, double spreadBefore, int windowsBefore) {
    return new Noise(windowsTonight > 0 ? spreadTonight / Math.sqrt(windowsTonight) : 0, windowsTonight,
        windowsBefore > 0 ? spreadBefore / Math.sqrt(windowsBefore) : 0, windowsBefore);
  }

  static String fmt(double v) {
    return Math.abs(v) >= 100 ? String.format("%,.0f", v) : String.format("%.1f", v);
  }
}
