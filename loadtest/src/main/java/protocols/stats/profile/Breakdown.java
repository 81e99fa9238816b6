package protocols.stats.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A profile's samples counted by {@link Component}. */
public final class Breakdown {
  private final long[] samples = new long[Component.values().length];

  /** No sample yet. */
  public Breakdown() {
  }

  /**
   * From collapsed stacks, one per line: frames root first, separated by {@code ;}, then a space and
   * the stack's count (async-profiler's and FlameGraph's format), each stack led by its thread's frame
   * ({@code [name tid=N]}) or not. Lines that are not such are skipped. With threads, the samples of a
   * thread that runs Gatling's actors go by {@link FrameClassifier#ofGatlingActorThread}.
   */
  public static Breakdown ofCollapsed(String text) {
    List<Map.Entry<List<String>, Long>> stacks = new ArrayList<>();
    text.lines().forEach(line -> {
      int space = line.lastIndexOf(' ');
      if (space <= 0) {
        return;
      }
      try {
        stacks.add(Map.entry(List.of(line.substring(0, space).split(";")),
            Long.parseLong(line.substring(space + 1).trim())));
      } catch (NumberFormatException e) {
        // not a stack line
      }
    });
    Set<String> actorThreads = new HashSet<>();
    for (Map.Entry<List<String>, Long> s : stacks) {
      if (thread(s.getKey()) != null && FrameClassifier.runsGatlingActor(s.getKey())) {
        actorThreads.add(thread(s.getKey()));
      }
    }
    Breakdown b = new Breakdown();
    for (Map.Entry<List<String>, Long> s : stacks) {
      String thread = thread(s.getKey());
      List<String> frames = thread == null ? s.getKey() : s.getKey().subList(1, s.getKey().size());
      Component c = actorThreads.contains(thread) ? FrameClassifier.ofGatlingActorThread(frames)
          : FrameClassifier.of(frames);
      b.samples[c.ordinal()] += s.getValue();
    }
    return b;
  }

  /** The thread a collapsed stack's first frame names ({@code [name tid=N]}), or null. */
  static String thread(List<String> rootFirst) {
    String f = rootFirst.isEmpty() ? "" : rootFirst.get(0);
    return f.startsWith("[") && f.endsWith("]") ? f : null;
  }

  /** {@code collapsed} without its stacks' thread frames, for a flame graph of the code alone. */
  public static String withoutThreads(String collapsed) {
    StringBuilder out = new StringBuilder(collapsed.length());
    collapsed.lines().forEach(line -> {
      int semi = line.indexOf(';');
      boolean threaded = line.startsWith("[") && semi > 0 && line.charAt(semi - 1) == ']';
      out.append(threaded ? line.substring(semi + 1) : line).append('\n');
    });
    return out.toString();
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
