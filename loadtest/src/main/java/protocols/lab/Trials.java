package protocols.lab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * How often each level is measured ({@code -Drepeat}) and in what order: round r measures every
 * variant once at a level, in an order shuffled per round from {@code -Dseed}, so that a drift of the
 * machine falls on every variant alike (randomized multiple interleaved trials, Abedi and Brecht,
 * ICPE 2017). With one trial nothing is shuffled and levels keep their names.
 *
 * @param repeat trials per level (1: each level once)
 * @param seed the shuffle's seed: the same seed gives the same order
 */
public record Trials(int repeat, long seed) {
  public static final int MAX_REPEAT = 100;
  /** A comparison's trials per level when -Drepeat is not given: the fewest that give an interval over trials. */
  public static final int COMPARISON_REPEAT = 3;

  /** {@code -Drepeat} (default {@code defaultRepeat}) and {@code -Dseed} (default: from the clock, and printed). */
  public static Trials of(LoadParams params, int defaultRepeat) {
    int repeat = params.intParam("repeat", defaultRepeat, 1, MAX_REPEAT);
    long seed = params.optional("seed").map(v -> {
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("-Dseed must be a whole number, got '" + v + "'");
      }
    }).orElseGet(() -> System.currentTimeMillis() % 1_000_000);
    return new Trials(repeat, seed);
  }

  public boolean repeated() {
    return repeat > 1;
  }

  /** The trial numbers a level's names carry: 1..repeat, or only 0 (no number) when it runs once. */
  public List<Integer> numbers() {
    List<Integer> out = new ArrayList<>();
    for (int t = 1; t <= repeat; t++) {
      out.add(repeated() ? t : 0);
    }
    return out;
  }

  /**
   * Round by round, the variants in the order they run at the {@code level}-th level: shuffled per
   * round when repeated (each level its own shuffles), else as given.
   */
  public <T> List<List<T>> rounds(List<T> variants, int level) {
    Random random = new Random(seed * 1_000_003L + level);
    List<List<T>> out = new ArrayList<>();
    for (int round = 0; round < repeat; round++) {
      List<T> order = new ArrayList<>(variants);
      if (repeated()) {
        Collections.shuffle(order, random);
      }
      out.add(List.copyOf(order));
    }
    return out;
  }

  /**
   * {@code -DserverDelayUs}: one delay in µs, or a list ({@code 0,0,400}) whose entries are the
   * shootout's variants, each its own server; empty when not given.
   */
  public static List<Integer> serverDelays(LoadParams params) {
    List<Integer> out = new ArrayList<>();
    params.optional("serverDelayUs").ifPresent(v -> {
      for (String part : v.split(",", -1)) {
        out.add(ParamValues.wholeNumber("serverDelayUs", part.trim(), 0, 10_000_000));
      }
    });
    return List.copyOf(out);
  }

  /**
   * A delay variant's name, the one place it is made: the framework's own name for the first undelayed
   * server, {@code +400us} for a delayed one, and {@code #2}, {@code #3} for a repeat of an earlier value.
   */
  public static String delayVariant(String framework, List<Integer> delays, int index) {
    int delay = delays.get(index);
    int earlier = Collections.frequency(delays.subList(0, index), delay);
    return framework + (delay > 0 ? " +" + delay + "us" : "") + (earlier > 0 ? " #" + (earlier + 1) : "");
  }
}
