package protocols.stats.profile;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A profile's samples counted by {@link Component}. */
public final class Breakdown {
  private final long[] samples = new long[Component.values().length];

  /** No sample yet. */
  public Breakdown() {
  }

  /**
   * From collapsed stacks, one per line: frames root first, separated by {@code ;}, then a space and
   * the stack's count (async-profiler's and FlameGraph's format). Lines that are not such are skipped.
   */
  public static Breakdown ofCollapsed(String text) {
    Breakdown b = new Breakdown();
    text.lines().forEach(line -> {
      int space = line.lastIndexOf(' ');
      if (space <= 0) {
        return;
      }
      long n;
      try {
        n = Long.parseLong(line.substring(space + 1).trim());
      } catch (NumberFormatException e) {
        return;
      }
      b.samples[FrameClassifier.of(List.of(line.substring(0, space).split(";"))).ordinal()] += n;
    });
    return b;
  }

  public long total() {
    return Arrays.stream(samples).sum();
  }

  public long samples(Component c) {
    return samples[c.ordinal()];
  }

  /** Each component's share of the samples, every component listed (they add up to 1; empty with no sample). */
  public Map<Component, Double> shares() {
    Map<Component, Double> out = new EnumMap<>(Component.class);
    long total = total();
    if (total == 0) {
      return out;
    }
    for (Component c : Component.values()) {
      out.put(c, (double) samples[c.ordinal()] / total);
    }
    return out;
  }

  /** The shares by label, in the components' order, as files and pages show them. */
  public Map<String, Double> sharesByLabel() {
    Map<String, Double> out = new LinkedHashMap<>();
    shares().forEach((c, s) -> out.put(c.label(), s));
    return out;
  }
}
