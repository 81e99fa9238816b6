package protocols.lab;

import java.util.ArrayList;
import java.util.List;

/** How a -D parameter's value is read: each kind of value once, with the one-line error a user gets. */
final class ParamValues {
  private ParamValues() {}

  /** {@code -D<name>=v}: distinct whole numbers from 1 to {@code max}; {@code expected} says what else is wrong. */
  static List<Integer> distinctList(String name, String v, int max, String expected, String each) {
    List<Integer> out = new ArrayList<>();
    for (String part : v.split(",", -1)) {
      int n;
      try {
        n = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > max) {
        throw new IllegalArgumentException("-D" + name + " must be " + expected + "; got '" + v + "'");
      }
      if (out.contains(n)) {
        throw new IllegalArgumentException("-D" + name + " lists " + n + " twice; each " + each + " runs once: '"
            + v + "'");
      }
      out.add(n);
    }
    return List.copyOf(out);
  }

  /** {@code -D<name>=v}: one of {@code allowed}. */
  static String choice(String name, String v, List<String> allowed) {
    if (!allowed.contains(v)) {
      throw new IllegalArgumentException("-D" + name + " must be one of " + String.join("|", allowed) + ", got '" + v + "'");
    }
    return v;
  }

  /** {@code -D<name>=v}: a whole number from {@code min} to {@code max}. */
  static int wholeNumber(String name, String v, int min, int max) {
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-D" + name + " must be a whole number from " + min + " to " + max
        + ", got '" + v + "'");
  }
}
