package protocols.core;

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
import java.util.function.IntFunction;

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

    int levels() {
      return auto() ? autoLevels : fixed.size();
    }

    public String describe() {
      return auto() ? "auto (from " + autoStart + " calls/s, at most " + autoLevels + " levels)" : fixed.toString();
    }
  }

  private final Rates rates;
  private final Duration duration;
  private final Duration ramp;
  private final int maxInFlight;
  private final int senders;
  private final IntFunction<String> measuredName;
  private final IntFunction<String> rampName;
  private final String autoLabel;
  private final Faults faults;
  private final Duration maxFailing;

  private OpenLoad(Rates rates, Duration duration, Duration ramp, int maxInFlight, int senders,
                   IntFunction<String> measuredName, IntFunction<String> rampName, String autoLabel, Faults faults,
                   Duration maxFailing) {
    this.rates = rates;
    this.duration = duration;
    this.ramp = ramp;
    this.maxInFlight = maxInFlight;
    this.senders = senders;
    this.measuredName = measuredName;
    this.rampName = rampName;
    this.autoLabel = autoLabel;
    this.faults = faults;
    this.maxFailing = maxFailing;
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
    return new OpenLoad(rates, Duration.ofSeconds(LoadParams.DEFAULT_DURATION_SECONDS), Duration.ZERO,
        LoadParams.DEFAULT_MAX_IN_FLIGHT, Runtime.getRuntime().availableProcessors(), null, null, "", null,
        Duration.ZERO);
  }

  /** How long each rate is held (measured). */
  public OpenLoad during(Duration d) {
    positive("a level's duration in ms", d.toMillis());
    return new OpenLoad(rates, d, ramp, maxInFlight, senders, measuredName, rampName, autoLabel, faults, maxFailing);
  }

  /** Before each level, a linear ramp from the previous level's rate (0 for the first), not measured. */
  public OpenLoad ramp(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a ramp cannot be negative: " + d);
    }
    return new OpenLoad(rates, duration, d, maxInFlight, senders, measuredName, rampName, autoLabel, faults, maxFailing);
  }

  /** The most calls in flight at once (default 10,000), shared evenly by the senders; beyond it a due call is dropped. */
  public OpenLoad maxInFlight(int calls) {
    positive("maxInFlight", calls);
    return new OpenLoad(rates, duration, ramp, calls, senders, measuredName, rampName, autoLabel, faults, maxFailing);
  }

  /** Senders (virtual users) sharing the schedule; default one per core, as Gatling has event loops. */
  public OpenLoad senders(int n) {
    positive("senders", n);
    return new OpenLoad(rates, duration, ramp, maxInFlight, n, measuredName, rampName, autoLabel, faults, maxFailing);
  }

  /** The request names of a level and of its ramp, by rate; the echo runs' own naming. */
  OpenLoad named(IntFunction<String> measured, IntFunction<String> ramped, String label) {
    return new OpenLoad(rates, duration, ramp, maxInFlight, senders, measured, ramped, label, faults, maxFailing);
  }

  /** An echo run's faults (timed from each level's measured start) and failure limit. */
  OpenLoad within(Faults f, Duration failing) {
    return new OpenLoad(rates, duration, ramp, maxInFlight, senders, measuredName, rampName, autoLabel, f, failing);
  }

  /**
   * One population per level, to run one after the other ({@link EchoRun#sequence}): each is
   * {@link #senders} virtual users sending {@code call} on the level's schedule. Levels are named
   * {@code <call> <rate> calls/s} (and {@code <call> ramp to <rate> calls/s}).
   *
   * @param scenario the scenarios' name prefix; must be unique in the simulation
   */
  public List<PopulationBuilder> populations(String scenario, RpcCallActionBuilder<?, ?, ?> call) {
    return populations(scenario, call, i -> exec(session -> session));
  }

  /** As above, each level's senders first running {@code before.apply(level index)} (the echo runs' start gate). */
  List<PopulationBuilder> populations(String scenario, RpcCallActionBuilder<?, ?, ?> call,
                                      IntFunction<ChainBuilder> before) {
    IntFunction<String> measured = measuredName != null ? measuredName : r -> call.name() + " " + r + " calls/s";
    IntFunction<String> ramped = rampName != null ? rampName : r -> call.name() + " ramp to " + r + " calls/s";
    AutoRates auto = rates.auto() ? new AutoRates(autoLabel.isEmpty() ? call.name() : autoLabel, rates.autoStart())
        : null;
    List<PopulationBuilder> out = new ArrayList<>();
    Level previous = null;
    for (int i = 0; i < rates.levels(); i++) {
      Level level = new Level(this, i, auto, previous, measured, ramped);
      String name = scenario + " " + (rates.auto() ? "rate level " + (i + 1) : rates.fixed().get(i) + " calls/s");
      ScenarioBuilder senders = scenario(name).exec(before.apply(i)).exec(call.sender(level));
      if (!maxFailing.isZero()) {
        senders = senders.exec(EchoRun.stopIfFailing(maxFailing)); // as the closed levels: one line, exit 2
      }
      out.add(senders.injectOpen(atOnceUsers(this.senders)));
      previous = level;
    }
    return out;
  }

  /** {@link #populations} one after the other, for {@code setUp(...)}. */
  public PopulationBuilder population(String scenario, RpcCallActionBuilder<?, ?, ?> call) {
    return EchoRun.sequence(populations(scenario, call));
  }

  /** What one sender needs of its level: names, schedule, its start, and its share of the cap. */
  record Plan(String name, String rampName, RateSchedule schedule, long startNanos, int senders, int capPerSender,
              Duration maxFailing) {
  }

  /** One level at run time: its rate is fixed, or (auto) chosen when its first sender arrives. */
  static final class Level {
    /** The first sender's arrival to the schedule's start: the other senders are on their loops by then. */
    private static final long START_DELAY_NANOS = 5_000_000;
    private final OpenLoad load;
    private final int index;
    private final AutoRates auto;
    private final Level previous;
    private final IntFunction<String> measured;
    private final IntFunction<String> ramped;
    private boolean begun;
    private Plan plan;
    private int joined;

    Level(OpenLoad load, int index, AutoRates auto, Level previous, IntFunction<String> measured,
          IntFunction<String> ramped) {
      this.load = load;
      this.index = index;
      this.auto = auto;
      this.previous = previous;
      this.measured = measured;
      this.ramped = ramped;
    }

    /** The level's plan and this sender's index, or null when there is nothing to send (auto has finished). */
    synchronized Joined join(LatencyRecorder recorder) {
      if (!begun) {
        begun = true;
        OptionalInt rate = auto == null ? OptionalInt.of(load.rates.fixed().get(index)) : auto.next(recorder);
        if (rate.isPresent()) {
          int r = rate.getAsInt();
          double from = previous == null || previous.rate() == null ? 0 : previous.rate();
          RateSchedule schedule = new RateSchedule(from, r, load.ramp, load.duration);
          String name = measured.apply(r);
          String rampName = ramped.apply(r);
          long start = System.nanoTime() + START_DELAY_NANOS;
          if (schedule.rampCalls() > 0) { // the ramp's row first, as it runs
            recorder.declareOpen(rampName, (from + r) / 2, load.maxInFlight, start);
          }
          recorder.declareOpen(name, r, load.maxInFlight, start + load.ramp.toNanos());
          if (load.faults != null && !load.faults.isEmpty()) {
            load.faults.startAt(name, start + load.ramp.toNanos());
          }
          plan = new Plan(name, rampName, schedule, start, load.senders, Math.max(1, load.maxInFlight / load.senders),
              load.maxFailing);
          if (auto != null) {
            auto.started(name, r);
          }
        }
      }
      return plan == null ? null : new Joined(plan, joined++ % load.senders);
    }

    synchronized Integer rate() {
      return plan == null ? null : (int) plan.schedule().rate();
    }
  }

  record Joined(Plan plan, int sender) {
  }
}
