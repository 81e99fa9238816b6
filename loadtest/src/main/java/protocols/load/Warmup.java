package protocols.load;

import static io.gatling.javaapi.core.CoreDsl.asLongAsDuring;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import protocols.stats.RunInfo;

/**
 * The warm-up before the first level: a fixed number of seconds, or ({@code -Dwarmup=auto}) until
 * the completions per second are stable, bounded by {@code -DwarmupMax}. Each warm-up records how
 * long it took and whether it reached stability; the run's summary and report show it. A level's
 * settle ({@code -Dsettle}) is the same loop on the level's own users, judged over
 * {@link #SETTLE_WINDOWS} windows: a level that starts slow is measured once it is steady.
 */
public final class Warmup {
  /**
   * Auto: the last this many full 1-second windows must be steady, by the levels' own measure but
   * to half their limits. Ten, because a JIT-heavy client (Dubbo, measured) plateaus for 4-5 s between
   * compilations and would pass a shorter test while still getting faster.
   */
  public static final int STABLE_WINDOWS = 10;
  public static final int DEFAULT_MAX_SECONDS = 60;
  /**
   * A level's settle: its last this many windows steady by the warm-up's rule. Three, the fewest that
   * show a trend; a level's start after a warm-up costs recompilations of seconds, not a JIT's plateaus.
   */
  public static final int SETTLE_WINDOWS = 3;
  /** {@code -Dsettle=auto}'s bound: a level that is not steady by then is measured anyway, and warned of. */
  public static final int DEFAULT_SETTLE_SECONDS = 10;

  /** {@code -Dwarmup}: {@code auto}, or a fixed number of seconds (0 skips); {@code max} bounds auto. */
  public record Plan(boolean auto, Duration fixed, Duration max) {
    /** {@code -D<name>=<value>}: {@code auto} (bounded by {@code max}) or whole seconds from 0 to 3600. */
    public static Plan parse(String name, String value, Duration max) {
      if (value.equals("auto")) {
        return new Plan(true, Duration.ZERO, max);
      }
      if (!value.matches("\\d{1,4}") || Integer.parseInt(value) > 3_600) {
        throw new IllegalArgumentException("-D" + name + " must be auto or a whole number of seconds from 0 to 3600,"
            + " got '" + value + "'");
      }
      return new Plan(false, Duration.ofSeconds(Integer.parseInt(value)), max);
    }

    public boolean skipped() {
      return !auto && fixed.isZero();
    }

    public Duration limit() {
      return auto ? max : fixed;
    }

    public String describe() {
      return auto ? "auto (at most " + max.toSeconds() + " s)" : fixed.toSeconds() + " s";
    }

    /**
     * The warm-up's rehearsal of a level's start: auto, until steady by a settle's rule, at most
     * {@link #DEFAULT_SETTLE_SECONDS}; after a fixed warm-up, as long as it, within that bound.
     */
    public Plan rehearsal() {
      Duration bound = Duration.ofSeconds(DEFAULT_SETTLE_SECONDS);
      return auto ? new Plan(true, Duration.ZERO, bound) : new Plan(false, fixed.compareTo(bound) < 0 ? fixed : bound,
          bound);
    }
  }

  private final String request;
  private final Plan plan;
  private final int stableWindows;
  private final AtomicLongArray windows;
  private volatile long startNanos;
  private volatile long endNanos;
  private volatile boolean stable;
  private volatile int checkedSecond = -1;

  private Warmup(String request, Plan plan, int stableWindows) {
    this.request = request;
    this.plan = plan;
    this.stableWindows = stableWindows;
    this.windows = new AtomicLongArray((int) plan.limit().toSeconds() + 2);
  }

  /** The warm-up of the request {@code request} (its run keeps it, to say what it did). */
  public static Warmup of(String request, Plan plan) {
    return new Warmup(request, plan, STABLE_WINDOWS);
  }

  /**
   * The settle of the level {@code level}: the loop its users run, under another request name, before
   * its measured calls; its outcome is the level's.
   */
  public static Warmup settling(String level, Plan plan) {
    return new Warmup(level, plan, SETTLE_WINDOWS);
  }

  /**
   * The warm-up loop of one population: each user calls until the plan says stop, or {@code keepGoing}
   * (the run's) does. Gatling's own {@code asLongAsDuring} bounds it by the plan's limit even if no call
   * ever completes.
   */
  public ChainBuilder loop(ActionBuilder call, BooleanSupplier keepGoing) {
    return loop(exec(call), keepGoing);
  }

  /** The warm-up loop of a chain that makes one call (e.g. a stream and its checks). */
  public ChainBuilder loop(ChainBuilder call, BooleanSupplier keepGoing) {
    return asLongAsDuring(session -> goOn() && keepGoing.getAsBoolean(), plan.limit().plusSeconds(1)).on(
        call.exec(countsOk()));
  }

  /**
   * After each warm-up call: counts it if it was OK (a steady stream of failures is not a stable
   * throughput), and clears the user's failed status, which Gatling keeps until it is cleared.
   */
  Function<Session, Session> countsOk() {
    return session -> {
      if (!session.isFailed()) {
        completed();
      }
      return session.markAsSucceeded();
    };
  }

  /** OK completions per second of the warm-up so far. */
  AtomicLongArray windows() {
    return windows;
  }

  /** What it did, for the summary: request, plan, seconds taken, stable or not; empty if it never ran. */
  public Optional<RunInfo.WarmupOutcome> outcome() {
    if (startNanos == 0) {
      return Optional.empty(); // not reached: an interrupted run
    }
    long end = endNanos == 0 ? System.nanoTime() : endNanos;
    return Optional.of(new RunInfo.WarmupOutcome(request, plan.describe(), Math.round((end - startNanos) / 1e8) / 10.0,
        plan.auto() ? stable : null, null, null));
  }

  /** Whether the users should go on warming up; called by each user before each call. */
  boolean goOn() {
    long now = System.nanoTime();
    if (startNanos == 0) {
      synchronized (this) {
        if (startNanos == 0) {
          startNanos = now;
        }
      }
    }
    if (endNanos != 0) {
      return false;
    }
    long elapsed = now - startNanos;
    if (elapsed >= plan.limit().toNanos()) {
      finish(now, false);
      return false;
    }
    int fullSeconds = (int) (elapsed / 1_000_000_000L);
    if (plan.auto() && fullSeconds != checkedSecond) {
      checkedSecond = fullSeconds;
      if (isStable(windows, fullSeconds, stableWindows)) {
        finish(now, true);
        return false;
      }
    }
    return true;
  }

  private synchronized void finish(long now, boolean reachedStability) {
    if (endNanos == 0) {
      endNanos = now;
      stable = reachedStability;
    }
  }

  void completed() {
    long start = startNanos;
    if (start != 0) {
      int second = (int) ((System.nanoTime() - start) / 1_000_000_000L);
      if (second < windows.length()) {
        windows.incrementAndGet(second);
      }
    }
  }

  /** The last {@link #STABLE_WINDOWS} of the first {@code full} windows spread and trend by at most half the levels' limits. */
  public static boolean isStable(AtomicLongArray windows, int full) {
    return isStable(windows, full, STABLE_WINDOWS);
  }

  /** The last {@code n} of the first {@code full} windows spread and trend by at most half the levels' limits. */
  public static boolean isStable(AtomicLongArray windows, int full, int n) {
    if (full < n) {
      return false;
    }
    long[] last = new long[n];
    for (int i = 0; i < n; i++) {
      last[i] = windows.get(full - n + i);
    }
    double[] steadiness = RunAnalysis.steadiness(last);
    return last[0] > 0 && steadiness[0] <= RunAnalysis.MAX_SPREAD / 2 && Math.abs(steadiness[1]) <= RunAnalysis.MAX_TREND / 2;
  }
}
