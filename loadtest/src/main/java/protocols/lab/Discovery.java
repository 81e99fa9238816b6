package protocols.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the shootout's clients find a framework's providers ({@code -Ddiscovery}): called directly at
 * their addresses, or through the framework's own registry, so one run shows what discovery costs.
 */
public enum Discovery {
  DIRECT, REGISTRY;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code direct}, {@code registry}, or both in the order they run ({@code direct,registry}). */
  public static List<Discovery> parseList(String value) {
    List<Discovery> out = new ArrayList<>();
    for (String one : value.split(",", -1)) {
      Discovery d = null;
      for (Discovery candidate : values()) {
        if (candidate.label().equals(one.trim().toLowerCase(Locale.ROOT))) {
          d = candidate;
        }
      }
      if (d == null || out.contains(d)) {
        throw new IllegalArgumentException("-Ddiscovery must be direct, registry or direct,registry, got '" + value
            + "'");
      }
      out.add(d);
    }
    return List.copyOf(out);
  }
}
