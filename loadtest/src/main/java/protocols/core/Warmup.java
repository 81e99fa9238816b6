package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.asLongAsDuring;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * The warm-up before the first level: a fixed number of seconds, or ({@code -Dwarmup=auto}) until
 * the completions per second are stable, bounded by {@code -DwarmupMax}. Each warm-up records how
 * long it took and whether it reached stability; the run's summary and report show it.
 */
public final class Warmup {
  /**
   * Auto: the last this many full 1-second windows must be steady, by the levels' own measure but
   * to half their limits. Ten, because a JIT-heavy client (Dubbo, measured) plateaus for 4-5 s between
   * compilations and would pass a shorter test while still getting faster.
   */
  static final int STABLE_WINDOWS = 10;
  public static final int DEFAULT_MAX_SECONDS = 60;

  private static final List<Warmup> RUN = new CopyOnWriteArrayList<>();

  /** {@code -Dwarmup}: {@code auto}, or a fixed number of seconds (0 skips); {@code max} bounds auto. */
  public record Plan(boolean auto, Duration fixed, Duration max) {
    public boolean skipped() {
      return !auto && fixed.isZero();
    }

    public Duration limit() {
      return auto ? max : fixed;
    }

    public String describe() {
      return auto ? "auto (at most " + max.toSeconds() + " s)" : fixed.toSeconds() + " s";
    }
  }

  private final String request;
  private final Plan plan;
  private final AtomicLongArray windows;
  private volatile long startNanos;
  private volatile long endNanos;
  private volatile boolean stable;
  private volatile int checkedSecond = -1;

  Warmup(String request, Plan plan) {
    this.request = request;
    this.plan = plan;
    this.windows = new AtomicLongArray((int) plan.limit().toSeconds() + 2);
  }

  /**
   * The warm-up loop of one population: each user calls until the plan says stop. Gatling's own
   * {@code asLongAsDuring} bounds it by the plan's limit even if no call ever completes.
   */
  public static ChainBuilder loop(String request, Plan plan, ActionBuilder call, Duration maxFailing) {
    Warmup w = new Warmup(request, plan);
    RUN.add(w);
    return asLongAsDuring(session -> w.goOn() && !FailureWatch.failingFor(maxFailing), plan.limit().plusSeconds(1)).on(
        exec(call).exec(w.countsOk()));
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

  /** What each warm-up of this run did, for the summary: request, plan, seconds taken, stable or not. */
  public static List<Map<String, Object>> outcomes() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Warmup w : RUN) {
      if (w.startNanos == 0) {
        continue; // not reached: an interrupted run
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("request", w.request);
      m.put("plan", w.plan.describe());
      long end = w.endNanos == 0 ? System.nanoTime() : w.endNanos;
      m.put("seconds", Math.round((end - w.startNanos) / 1e8) / 10.0);
      if (w.plan.auto()) {
        m.put("stable", w.stable);
      }
      out.add(m);
    }
    return out;
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
      if (isStable(windows, fullSeconds)) {
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
    if (full < STABLE_WINDOWS) {
      return false;
    }
    long[] last = new long[STABLE_WINDOWS];
    for (int i = 0; i < STABLE_WINDOWS; i++) {
      last[i] = windows.get(full - STABLE_WINDOWS + i);
    }
    double[] steadiness = RunAnalysis.steadiness(last);
    return last[0] > 0 && steadiness[0] <= RunAnalysis.MAX_SPREAD / 2 && Math.abs(steadiness[1]) <= RunAnalysis.MAX_TREND / 2;
  }
}
