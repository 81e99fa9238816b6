package protocols.stats;

import java.util.Locale;

/** How figures are written for people: the reports, the console and the warnings say them alike. */
public final class Numbers {
  private Numbers() {}

  /** {@code v} with {@code digits} decimals, a point as the separator. */
  public static String fmt(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  /** A share as a whole percentage: {@code 0.1234} is {@code 12%}. */
  public static String pct(double share) {
    return fmt(share * 100, 0) + "%";
  }
}
