package protocols.stats;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Intervals over a level's repeated trials (docs/reading-results.md#trials). A figure: the median of
 * its trials, with a percentile-bootstrap 95% interval (resampling the trials; seeded, so a report is
 * reproducible). A ratio of two variants measured in the same rounds: the geometric mean of the
 * rounds' ratios, with a Student-t interval on their logarithms: pairing by round takes out what a
 * drift of the machine did to both, which is what interleaving the trials is for.
 */
public final class TrialStats {
  /** Resamples of a bootstrap: enough for stable 2.5% and 97.5% percentiles. */
  static final int RESAMPLES = 2_000;
  /** A ratio within 2% of 1 is no difference worth a word, however narrow its interval. */
  public static final double NOISE_FLOOR = 0.02;
  /**
   * A p99 ratio within 40% of 1 is no difference worth a word: each variant has a server JVM of its own
   * for the whole run, and two identical servers' p99 differed by up to 1.37x over 5 rounds whose
   * intervals excluded 1 (docs/trials.md: four identical gRPC servers; their calls/s and p50 did not).
   */
  public static final double P99_NOISE_FLOOR = 0.40;

  private TrialStats() {}

  /** The median of {@code trials} with its bootstrap 95% interval; no interval with fewer than 2 trials. */
  public static Interval median(double[] trials, long seed) {
    int n = trials.length;
    if (n == 0) {
      return new Interval(Double.NaN, Double.NaN, Double.NaN, "no trial");
    }
    double mid = medianOf(trials.clone());
    if (n < 2) {
      return new Interval(Double.NaN, mid, Double.NaN, "one trial: no interval over trials");
    }
    Random random = new Random(seed);
    double[] medians = new double[RESAMPLES];
    double[] sample = new double[n];
    for (int b = 0; b < RESAMPLES; b++) {
      for (int i = 0; i < n; i++) {
        sample[i] = trials[random.nextInt(n)];
      }
      medians[b] = medianOf(sample);
    }
    Arrays.sort(medians);
    return new Interval(percentile(medians, 0.025), mid, percentile(medians, 0.975), String.format(Locale.ROOT,
        "median of %d trials, percentile bootstrap (%d resamples)", n, RESAMPLES));
  }

  /** A sample's mean with its Student-t 95% interval ({@code n - 1} degrees of freedom). */
  public static Interval mean(double[] xs) {
    int n = xs.length;
    double mean = Arrays.stream(xs).average().orElse(Double.NaN);
    if (n < 2) {
      return new Interval(Double.NaN, mean, Double.NaN, "fewer than 2 values: no interval");
    }
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    double half = Intervals.tQuantile(0.975, n - 1) * Math.sqrt(ss / (n - 1) / n);
    return new Interval(mean - half, mean, mean + half, "mean of " + n + ", Student's t");
  }

  /**
   * {@code candidate / baseline} from the same rounds (index i of each is round i): the geometric mean
   * of the rounds' ratios and its 95% interval; null bounds when a round has no figure on either side.
   */
  public static Interval pairedRatio(double[] baseline, double[] candidate) {
    if (baseline.length != candidate.length) {
      throw new IllegalArgumentException("paired trials: " + baseline.length + " against " + candidate.length);
    }
    double[] logs = new double[baseline.length];
    for (int i = 0; i < logs.length; i++) {
      if (!(baseline[i] > 0 && candidate[i] > 0)) {
        return new Interval(Double.NaN, Double.NaN, Double.NaN, "a round without a figure: no ratio");
      }
      logs[i] = Math.log(candidate[i] / baseline[i]);
    }
    Interval l = mean(logs);
    return new Interval(Math.exp(l.lo()), Math.exp(l.mid()), Math.exp(l.hi()), String.format(Locale.ROOT,
        "geometric mean of %d rounds' ratios, Student's t on their logarithms", logs.length));
  }

  /**
   * {@code candidate / baseline} from trials measured apart (not in the same rounds): the ratio of their
   * geometric means and its 95% interval, Welch's t on the logarithms; NaN bounds with fewer than 2 trials
   * a side or a trial without a figure.
   */
  public static Interval unpairedRatio(double[] baseline, double[] candidate) {
    if (baseline.length < 2 || candidate.length < 2 || Arrays.stream(baseline).anyMatch(x -> !(x > 0))
        || Arrays.stream(candidate).anyMatch(x -> !(x > 0))) {
      return new Interval(Double.NaN, Double.NaN, Double.NaN, "fewer than 2 trials a side: no interval");
    }
    double[] lb = Arrays.stream(baseline).map(Math::log).toArray();
    double[] lc = Arrays.stream(candidate).map(Math::log).toArray();
    double mb = Arrays.stream(lb).average().orElse(0);
    double mc = Arrays.stream(lc).average().orElse(0);
    double vb = Arrays.stream(lb).map(x -> (x - mb) * (x - mb)).sum() / (lb.length - 1) / lb.length;
    double vc = Arrays.stream(lc).map(x -> (x - mc) * (x - mc)).sum() / (lc.length - 1) / lc.length;
    double se = Math.sqrt(vb + vc);
    double df = se == 0 ? Double.POSITIVE_INFINITY
        : (vb + vc) * (vb + vc) / (vb * vb / (lb.length - 1) + vc * vc / (lc.length - 1));
    double half = Intervals.tQuantile(0.975, Math.min(df, 1e6)) * se;
    return new Interval(Math.exp(mc - mb - half), Math.exp(mc - mb), Math.exp(mc - mb + half),
        String.format(Locale.ROOT, "ratio of geometric means of %d and %d trials measured apart, Welch's t on their"
            + " logarithms (%.1f degrees of freedom)", lc.length, lb.length, Math.min(df, 1e6)));
  }

  /**
   * The smallest change a ratio of two variants like these could show at this level, as a fraction
   * (0.04: ±4%): the half-width, on the log scale, of the interval an A/A pair with this level's
   * spread would get, from the trials of every variant ({@code trials[variant][round]}).
   * NaN with fewer than 2 rounds.
   */
  public static double resolution(double[][] trials) {
    double pooled = 0;
    int variants = 0;
    int rounds = 0;
    for (double[] t : trials) {
      if (t.length < 2 || Arrays.stream(t).anyMatch(x -> !(x > 0))) {
        continue;
      }
      double[] logs = Arrays.stream(t).map(Math::log).toArray();
      double mean = Arrays.stream(logs).average().orElse(0);
      pooled += Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / (logs.length - 1);
      variants++;
      rounds = t.length;
    }
    if (variants == 0) {
      return Double.NaN;
    }
    double sd = Math.sqrt(pooled / variants);
    return Math.expm1(Intervals.tQuantile(0.975, rounds - 1) * sd * Math.sqrt(2.0 / rounds));
  }

  /**
   * The same for variants measured in the same rounds: the half-width of a paired ratio's interval,
   * from every two variants' per-round log ratios, their variances pooled. Interleaving is why it is
   * narrower than {@link #resolution}: a round's drift falls on both sides. NaN with one variant or
   * fewer than 2 rounds.
   */
  public static double pairedResolution(double[][] trials) {
    double pooled = 0;
    int pairs = 0;
    int rounds = 0;
    for (int i = 0; i < trials.length; i++) {
      for (int j = i + 1; j < trials.length; j++) {
        double[] a = trials[i];
        double[] b = trials[j];
        int n = Math.min(a.length, b.length);
        double[] logs = new double[n];
        boolean complete = n >= 2;
        for (int r = 0; r < n && complete; r++) {
          complete = a[r] > 0 && b[r] > 0;
          logs[r] = complete ? Math.log(b[r] / a[r]) : 0;
        }
        if (!complete) {
          continue;
        }
        double mean = Arrays.stream(logs).average().orElse(0);
        pooled += Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
        pairs++;
        rounds = n;
      }
    }
    if (pairs == 0) {
      return Double.NaN;
    }
    return Math.expm1(Intervals.tQuantile(0.975, rounds - 1) * Math.sqrt(pooled / pairs / rounds));
  }

  /** The median of {@code xs} (of an even number, the mean of the middle two). */
  public static double medianOf(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** The {@code p} quantile of sorted {@code xs}, interpolated between ranks (R's type 7). */
  static double percentile(double[] sorted, double p) {
    double h = (sorted.length - 1) * p;
    int lo = (int) Math.floor(h);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }
}
