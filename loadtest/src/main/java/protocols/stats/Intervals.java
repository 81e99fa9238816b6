package protocols.stats;

import java.util.Locale;

/**
 * 95% intervals on the lab's figures and on the ratio of two, and the verdict a comparison may give.
 * One run's level: the mean of its 1-second windows with a Student-t interval whose sample size is
 * corrected for the windows' lag-1 autocorrelation (a slow second tends to follow a slow second, so
 * five windows are fewer than five independent samples). A ratio: on the log scale, its standard error
 * from both sides' (the delta method) and Welch-Satterthwaite's degrees of freedom. See
 * docs/comparing-runs.md for why, and for what such an interval leaves out.
 */
public final class Intervals {
  private Intervals() {}

  /** A mean, its standard error and degrees of freedom, and how they were made. */
  public record Estimate(double mean, double standardError, double degreesOfFreedom, String method) {
    /** Whether it supports an interval (two windows at least, a positive mean). */
    public boolean usable() {
      return mean > 0 && Double.isFinite(standardError) && degreesOfFreedom >= 1;
    }

    public Interval interval() {
      double half = usable() ? tQuantile(0.975, degreesOfFreedom) * standardError : Double.NaN;
      return new Interval(mean - half, mean, mean + half, method);
    }
  }

  /** The largest lag-1 autocorrelation taken at its word: beyond it the windows say too little. */
  private static final double MAX_AUTOCORRELATION = 0.9;

  /** The mean of one run's 1-second windows (calls/s, or a per-second percentile), with its standard error. */
  public static Estimate ofWindows(long[] windows) {
    int n = windows.length;
    if (n < 2) {
      return new Estimate(n == 1 ? windows[0] : 0, Double.NaN, 0, "fewer than 2 one-second windows: no interval");
    }
    double mean = 0;
    for (long w : windows) {
      mean += w;
    }
    mean /= n;
    double ss = 0;
    double lagged = 0;
    for (int i = 0; i < n; i++) {
      ss += (windows[i] - mean) * (windows[i] - mean);
      if (i + 1 < n) {
        lagged += (windows[i] - mean) * (windows[i + 1] - mean);
      }
    }
    double rho = ss == 0 ? 0 : Math.max(0, Math.min(MAX_AUTOCORRELATION, lagged / ss));
    double effective = Math.max(2, n * (1 - rho) / (1 + rho));
    double sd = Math.sqrt(ss / (n - 1));
    return new Estimate(mean, sd / Math.sqrt(effective), effective - 1, String.format(Locale.ROOT,
        "one run's %d one-second windows (lag-1 autocorrelation %.2f: as %.1f independent ones), Student's t", n,
        rho, effective));
  }

  /** {@code candidate / baseline} with its 95% interval; NaN bounds when either side has none. */
  public static Interval ratio(Estimate baseline, Estimate candidate) {
    return ratio(baseline, candidate, "ratio of means");
  }

  /** The same, its method named as {@code what} ("ratio of means", or what the two figures are). */
  public static Interval ratio(Estimate baseline, Estimate candidate, String what) {
    double r = candidate.mean() / baseline.mean();
    if (!baseline.usable() || !candidate.usable()) {
      return new Interval(Double.NaN, r, Double.NaN, "no interval: " + (baseline.usable() ? candidate : baseline)
          .method());
    }
    double ub = baseline.standardError() / baseline.mean();
    double uc = candidate.standardError() / candidate.mean();
    double se = Math.sqrt(ub * ub + uc * uc);
    double df = se == 0 ? Double.POSITIVE_INFINITY : Math.pow(ub * ub + uc * uc, 2)
        / (Math.pow(ub, 4) / baseline.degreesOfFreedom() + Math.pow(uc, 4) / candidate.degreesOfFreedom());
    double half = tQuantile(0.975, df) * se;
    return new Interval(r * Math.exp(-half), r, r * Math.exp(half), String.format(Locale.ROOT,
        "%s, log scale, Welch's %.1f degrees of freedom", what, Math.min(df, 1e6)));
  }

  /**
   * The word a ratio supports: a direction only when its interval excludes 1 and the ratio itself is
   * beyond the noise floor ({@code 0.25}: a change of 25% either way); no word without an interval.
   *
   * @param higherIsBetter calls/s: a ratio above 1 is faster; latency: below 1 is
   */
  public static Verdict verdict(Interval ratio, boolean higherIsBetter, double noiseFloor) {
    if (Double.isNaN(ratio.lo()) || Double.isNaN(ratio.hi())) {
      return Verdict.NOT_JUDGED;
    }
    if (ratio.contains(1) || (ratio.mid() < 1 + noiseFloor && ratio.mid() > 1 / (1 + noiseFloor))) {
      return Verdict.NO_DIFFERENCE;
    }
    return (ratio.mid() > 1) == higherIsBetter ? Verdict.FASTER : Verdict.SLOWER;
  }

  /** Student's t distribution's {@code p} quantile for {@code df} degrees of freedom (any real df above 0). */
  public static double tQuantile(double p, double df) {
    if (!(p > 0 && p < 1) || !(df > 0)) {
      throw new IllegalArgumentException("p in (0, 1) and df > 0, got " + p + ", " + df);
    }
    if (p < 0.5) {
      return -tQuantile(1 - p, df);
    }
    double lo = 0;
    double hi = 1;
    while (tCdf(hi, df) < p) {
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (tCdf(mid, df) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** P(T <= t) for Student's t with {@code df} degrees of freedom. */
  static double tCdf(double t, double df) {
    if (Double.isInfinite(df)) {
      return 0.5 * erfc(-t / Math.sqrt(2));
    }
    double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
  }

  /** The regularized incomplete beta function I_x(a, b), by its continued fraction (Lentz). */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
    return x < (a + 1) / (a + b + 2) ? front * betaFraction(x, a, b) / a : 1 - front * betaFraction(1 - x, b, a) / b;
  }

  private static double betaFraction(double x, double a, double b) {
    final double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
      for (int step = 0; step < 2; step++) {
        double aa = step == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + aa * d;
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        c = 1 + aa / c;
        c = Math.abs(c) < tiny ? tiny : c;
        h *= d * c;
        if (step == 1 && Math.abs(d * c - 1) < 1e-15) {
          return h;
        }
      }
    }
    return h;
  }

  private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
      771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
      1.5056327351493116e-7};

  /** ln Γ(x) for x > 0 (Lanczos, g = 7). */
  static double logGamma(double x) {
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    double z = x - 1;
    double sum = LANCZOS[0];
    for (int i = 1; i < LANCZOS.length; i++) {
      sum += LANCZOS[i] / (z + i);
    }
    double t = z + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  /** The complementary error function (Numerical Recipes' Chebyshev fit, relative error under 1.2e-7). */
  private static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
        + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
  }
}
