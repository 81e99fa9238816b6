package protocols.load;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.ObjLongConsumer;
import protocols.rpc.CallObserver;
import protocols.rpc.RateSchedule;
import protocols.rpc.SendSchedule;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.rpc.RpcCallActionBuilder;

/**
 * Open-model load: calls sent at a rate, on schedule whether or not earlier replies came back, each
 * timed from when the schedule said to send it (its response time) as well as from when it was sent
 * (its service time). {@code OpenLoad.rates(1000, 5000).during(Duration.ofSeconds(15))} gives one
 * population per rate, one after the other, for any {@code exec}-able RPC call:
 *
 * <pre>setUp(OpenLoad.rates(1000, 5000).during(Duration.ofSeconds(15)).population("hello", call)).protocols(grpc);</pre>
 *
 * <p>Not Gatling's {@code constantUsersPerSec}: Gatling starts those users at whole milliseconds (at
 * 20,000/s, 20 calls leave in one burst every ms, against 100 µs calls) and costs a virtual user per
 * call. Here a few senders, one per Gatling event loop, each send their share of the schedule from
 * their loop, to the nanosecond; a call due while {@link #maxInFlight} calls are in flight is
 * dropped and counted, never silently skipped.
 */
public final class OpenLoad {

  /** The rates of a run: a fixed list, or auto (doubling from a start rate, then halving the gap). */
  public record Rates(List<Integer> fixed, int autoStart, int autoLevels) {
    public static Rates fixed(List<Integer> perSecond) {
      if (perSecond.isEmpty()) {
        throw new IllegalArgumentException("at least one rate");
      }
      return new Rates(List.copyOf(perSecond), 0, 0);
    }

    public static Rates auto(int start, int maxLevels) {
      return new Rates(List.of(), start, maxLevels);
    }

    public boolean auto() {
      return fixed.isEmpty();
    }

    public int levels() {
      return auto() ? autoLevels : fixed.size();
    }

    public String describe() {
      return auto() ? "auto (from " + autoStart + " calls/s, at most " + autoLevels + " levels)" : fixed.toString();
    }
  }

  /** Each level's duration when not set: the lab's default. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(15);
  /** The cap on calls in flight when not set. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 10_000;

  /**
   * How the levels run: their rates, each one's time and ramp, the cap, the senders; how they are
   * named ({@code level}: the measured level of a rate, null for the call's own name); and what the
   * run adds (a start gate before each level, a step after it, a hook when a level's measured part
   * begins, and whether to keep sending).
   */
  private record Config(Rates rates, Duration duration, Duration ramp, int maxInFlight, int senders,
                        IntFunction<Level> level, String autoLabel, IntFunction<ChainBuilder> before,
                        ChainBuilder after, ObjLongConsumer<String> measuredStart, BooleanSupplier keepSending) {
  }

  private final Config c;

  private OpenLoad(Config c) {
    this.c = c;
  }

  /** Each rate (calls/s) for {@link #during} (default 15 s), one after the other. */
  public static OpenLoad rates(int... perSecond) {
    for (int r : perSecond) {
      positive("a rate", r);
    }
    return of(Rates.fixed(Arrays.stream(perSecond).boxed().toList()));
  }

  private static int positive(String what, long n) {
    if (n < 1) {
      throw new IllegalArgumentException(what + " must be at least 1, got " + n);
    }
    return (int) n;
  }

  /** Doubling from {@code start} calls/s until a level saturates, then halving the gap; at most {@code maxLevels}. */
  public static OpenLoad auto(int start, int maxLevels) {
    return of(Rates.auto(positive("the start rate", start), positive("the most levels", maxLevels)));
  }

  public static OpenLoad of(Rates rates) {
    return new OpenLoad(new Config(rates, DEFAULT_DURATION, Duration.ZERO, DEFAULT_MAX_IN_FLIGHT,
        Runtime.getRuntime().availableProcessors(), null, "", i -> exec(session -> session), null, (name, at) -> { },
        () -> true));
  }

  /** How long each rate is held (measured). */
  public OpenLoad during(Duration d) {
    positive("a level's duration in ms", d.toMillis());
    return new OpenLoad(new Config(c.rates, d, c.ramp, c.maxInFlight, c.senders, c.level, c.autoLabel, c.before,
        c.after, c.measuredStart, c.keepSending));
  }

  /** Before each level, a linear ramp from the previous level's rate (0 for the first), not measured. */
  public OpenLoad ramp(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a ramp cannot be negative: " + d);
    }
    return new OpenLoad(new Config(c.rates, c.duration, d, c.maxInFlight, c.senders, c.level, c.autoLabel, c.before,
        c.after, c.measuredStart, c.keepSending));
  }

  /** The most calls in flight at once (default 10,000), shared evenly by the senders; beyond it a due call is dropped. */
  public OpenLoad maxInFlight(int calls) {
    positive("maxInFlight", calls);
    return new OpenLoad(new Config(c.rates, c.duration, c.ramp, calls, c.senders, c.level, c.autoLabel, c.before,
        c.after, c.measuredStart, c.keepSending));
  }

  /** Senders (virtual users) sharing the schedule; default one per core, as Gatling has event loops. */
  public OpenLoad senders(int n) {
    positive("senders", n);
    return new OpenLoad(new Config(c.rates, c.duration, c.ramp, c.maxInFlight, n, c.level, c.autoLabel, c.before,
        c.after, c.measuredStart, c.keepSending));
  }

  /**
   * The level of each rate (the lab's own: {@code Level.rate(framework, r, mode)}), and the search's
   * label in its console lines; by default a level is named after the call ({@code call R calls/s}).
   */
  public OpenLoad levels(IntFunction<Level> level, String autoLabel) {
    return new OpenLoad(new Config(c.rates, c.duration, c.ramp, c.maxInFlight, c.senders, level, autoLabel, c.before,
        c.after, c.measuredStart, c.keepSending));
  }

  /**
   * What a run adds: {@code before} each level i (a start gate), {@code after} each sender's share (a
   * stop check), {@code measuredStart} told each level's name and the start of its measured part (its
   * faults' clock), and {@code keepSending} asked before every call.
   */
  public OpenLoad around(IntFunction<ChainBuilder> before, ChainBuilder after, ObjLongConsumer<String> measuredStart,
                         BooleanSupplier keepSending) {
    return new OpenLoad(new Config(c.rates, c.duration, c.ramp, c.maxInFlight, c.senders, c.level, c.autoLabel, before,
        after, measuredStart, keepSending));
  }

  /**
   * One population per level, to run one after the other ({@link Populations#sequence}): each is
   * {@link #senders} virtual users sending {@code call} on the level's schedule. Levels are named
   * {@code <call> <rate> calls/s} (and {@code <call> ramp to <rate> calls/s}) unless {@link #levels} says.
   *
   * @param scenario the scenarios' name prefix; must be unique in the simulation
   */
  public List<PopulationBuilder> populations(String scenario, RpcCallActionBuilder<?, ?, ?> call) {
    IntFunction<Level> level = c.level != null ? c.level : r -> Level.rateOf(call.name(), r);
    AutoRates auto = c.rates.auto()
        ? new AutoRates(c.autoLabel.isEmpty() ? call.name() : c.autoLabel, c.rates.autoStart()) : null;
    List<PopulationBuilder> out = new ArrayList<>();
    RateLevel previous = null;
    for (int i = 0; i < c.rates.levels(); i++) {
      RateLevel rateLevel = new RateLevel(c, i, auto, previous, level);
      String name = scenario + " " + (c.rates.auto() ? "rate level " + (i + 1) : c.rates.fixed().get(i) + " calls/s");
      ScenarioBuilder senders = scenario(name).exec(c.before.apply(i)).exec(call.onSchedule(rateLevel));
      if (c.after != null) {
        senders = senders.exec(c.after);
      }
      out.add(senders.injectOpen(atOnceUsers(c.senders)));
      previous = rateLevel;
    }
    return out;
  }

  /** {@link #populations} one after the other, for {@code setUp(...)}. */
  public PopulationBuilder population(String scenario, RpcCallActionBuilder<?, ?, ?> call) {
    return Populations.sequence(populations(scenario, call));
  }

  /** One level at run time: its rate is fixed, or (auto) chosen when its first sender arrives. */
  static final class RateLevel implements SendSchedule {
    /** The first sender's arrival to the schedule's start: the other senders are on their loops by then. */
    private static final long START_DELAY_NANOS = 5_000_000;
    private final Config c;
    private final int index;
    private final AutoRates auto;
    private final RateLevel previous;
    private final IntFunction<Level> level;
    private boolean begun;
    private Plan plan;
    private int joined;

    RateLevel(Config c, int index, AutoRates auto, RateLevel previous, IntFunction<Level> level) {
      this.c = c;
      this.index = index;
      this.auto = auto;
      this.previous = previous;
      this.level = level;
    }

    @Override
    public synchronized Joined join(CallObserver observer) {
      if (!begun) {
        begun = true;
        OptionalInt rate = auto == null ? OptionalInt.of(c.rates.fixed().get(index)) : auto.next(observer);
        if (rate.isPresent()) {
          int r = rate.getAsInt();
          double from = previous == null || previous.rate() == null ? 0 : previous.rate();
          RateSchedule schedule = new RateSchedule(from, r, c.ramp, c.duration);
          Level measured = level.apply(r);
          Level ramp = measured.ramp();
          long start = System.nanoTime() + START_DELAY_NANOS;
          observer.unwrap(LatencyRecorder.class).ifPresent(recorder -> {
            recorder.describe(measured.name(), measured);
            recorder.describe(ramp.name(), ramp);
          });
          if (schedule.rampCalls() > 0) { // the ramp's row first, as it runs
            observer.openLevel(ramp.name(), (from + r) / 2, c.maxInFlight, start);
          }
          observer.openLevel(measured.name(), r, c.maxInFlight, start + c.ramp.toNanos());
          c.measuredStart.accept(measured.name(), start + c.ramp.toNanos());
          plan = new Plan(measured.name(), ramp.name(), schedule, start, c.senders,
              Math.max(1, c.maxInFlight / c.senders), c.keepSending);
          if (auto != null) {
            auto.started(measured.name(), r);
          }
        }
      }
      return plan == null ? null : new Joined(plan, joined++ % c.senders);
    }

    synchronized Integer rate() {
      return plan == null ? null : (int) plan.schedule().rate();
    }
  }
}
