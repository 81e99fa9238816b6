package protocols.lab;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.asLongAsDuring;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.stopLoadGeneratorIf;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import protocols.load.Faults;
import protocols.load.OpenLoad;
import protocols.load.RunAnalysis;
import protocols.load.SummaryListener;
import protocols.load.Warmup;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;
import protocols.stats.Numbers;
import protocols.stats.RequestStats;
import protocols.stats.Saturation;

/**
 * One framework's levels in one mode, as Gatling populations: the warm-up, then the closed levels
 * (N persistent clients each), then the rate levels, each named from its {@link Level}.
 */
public final class EchoLevels {
  private static final String COUNTER = "rpcCall";
  /** Between two levels of injectors started together: a Gatling injector tick and some slack. */
  private static final Duration LEVEL_GAP = Duration.ofSeconds(2);
  /** At least as many as Gatling's event loops (Netty's default: two per core), users going to them in turn. */
  private static final int REHEARSAL_USERS = 2 * Runtime.getRuntime().availableProcessors();
  /** The rehearsal's calls in a level's own loop, before its settle: long enough for the JIT to see them. */
  private static final Duration REHEARSED_LEVEL = Duration.ofSeconds(2);

  private final EchoRun echo;
  private final LoadParams params;
  private final LabRun run;
  /** The framework's name when the run has several (the request names' prefix), else null. */
  private final String framework;
  private final InvocationMode mode;

  EchoLevels(EchoRun echo, String framework, InvocationMode mode) {
    this.echo = echo;
    this.params = echo.params();
    this.run = echo.run();
    this.framework = framework;
    this.mode = mode;
  }

  /**
   * The warm-up, then one scenario per level and trial (a level's trials one after the other), then
   * the rate levels. Each level's users are persistent clients calling in a loop under the level's
   * name, so Gatling's report gives every level its own line.
   *
   * @param protocol the framework's protocol, set on each scenario with the run's ({@link LabRun#protocol})
   */
  public List<PopulationBuilder> populations(ProtocolBuilder protocol, Trials trials) {
    List<PopulationBuilder> steps = new ArrayList<>(warmups(protocol));
    int k = 0;
    for (int clients : params.levels()) {
      for (int trial : trials.numbers()) {
        steps.add(closed(k++, clients, trial, protocol));
      }
    }
    steps.addAll(rates(protocol, k));
    return steps;
  }

  /** The warm-up and its rehearsal of a level's start; none when -Dwarmup=0. */
  public List<PopulationBuilder> warmups(ProtocolBuilder protocol) {
    List<PopulationBuilder> steps = new ArrayList<>();
    Warmup.Plan warmup = params.warmup();
    if (warmup.skipped()) {
      return steps;
    }
    String prefix = framework == null ? "" : framework + " ";
    String tag = "(" + mode.label() + ")";
    BooleanSupplier going = going();
    int users = Math.min(20, params.levels().stream().mapToInt(Integer::intValue).max().orElse(20));
    String name = run.describe(Level.warmup(framework, mode));
    steps.add(withProtocol(scenario(name)
        .exec(run.add(Warmup.of(name, warmup)).loop(call(name), going), stopIfFailing())
        .injectOpen(atOnceUsers(users)), protocol));
    // A level's start, rehearsed: new users on other event loops, after an idle gap, under a new
    // name make the JIT drop code compiled for one busy loop (docs/reading-results.md#level-starts).
    // Here it recompiles before anything is measured; enough users to reach every event loop.
    // Its users call as a level's do, then as a settle's, so the call's next action has been both.
    String rehearsal = run.describe(Level.rehearsal(framework, mode));
    steps.add(withProtocol(scenario(prefix + "rehearsal " + tag)
        .exec(timed(call(rehearsal), REHEARSED_LEVEL, going),
            run.addSettle(Warmup.settling(rehearsal, warmup.rehearsal())).loop(call(rehearsal), going),
            stopIfFailing())
        .injectOpen(atOnceUsers(Math.max(users, REHEARSAL_USERS))), protocol));
    return steps;
  }

  private BooleanSupplier going() {
    Duration failing = params.maxFailingSeconds();
    return () -> !run.watch().failingFor(failing);
  }

  /**
   * Closed level {@code clients} (trial {@code trial}, 0 when it runs once), the {@code k}-th level of
   * its injector: its settle, then its measured calls.
   */
  public PopulationBuilder closed(int k, int clients, int trial, ProtocolBuilder protocol) {
    String prefix = framework == null ? "" : framework + " ";
    String tag = "(" + mode.label() + ")" + (trial > 0 ? " trial " + trial : "");
    BooleanSupplier going = going();
    Duration ramp = params.ramp();
    Warmup.Plan settle = params.settle();
    Level measured = Level.closed(framework, clients, mode).trial(trial);
    String request = run.describe(measured);
    ActionBuilder call = call(request);
    // Users leave the loop once every call has failed for -DmaxFailingSeconds; the run then stops.
    LevelClock clock = new LevelClock(ramp, params.duration());
    ChainBuilder loop = params.calls()
        .map(n -> asLongAs(session -> session.getInt(COUNTER) < n && going.getAsBoolean(), COUNTER).on(exec(call)))
        .orElseGet(() -> ramp.isZero()
            ? timed(call, params.duration(), going)
            : asLongAs(session -> clock.running() && going.getAsBoolean()).on(exec(call)));
    Faults faults = echo.faults();
    ChainBuilder level = faults.isEmpty() ? loop : faults.startsLevel(request).exec(loop);
    if (!faults.isEmpty() && params.calls().isEmpty()) {
      // A server slow to come back (a restart is a JVM's start) would leave the recovery unseen.
      level = level.exec(asLongAs(session -> faults.recoveryPending(request) && going.getAsBoolean()).on(exec(call)));
    }
    if (!settle.skipped()) {
      // Its own users call under the settle's name until the level is steady, then on into the level.
      level = run.addSettle(Warmup.settling(request, settle)).loop(call(run.describe(measured.settle())), going)
          .exec(level);
    }
    if (!ramp.isZero()) {
      // Users join evenly over the ramp and call under the ramp's name until the level is full.
      ActionBuilder rampCall = call(run.describe(measured.ramp()));
      level = exec(clock.starts()).exec(asLongAs(session -> clock.ramping() && going.getAsBoolean())
          .on(exec(rampCall))).exec(level);
    }
    level = startGate(k).exec(level);
    return withProtocol(scenario(prefix + clients + " clients " + tag)
        .exec(level, stopIfFailing())
        .injectOpen(ramp.isZero() ? atOnceUsers(clients) : rampUsers(clients).during(ramp)), protocol);
  }

  /** The rate levels (-Drates), after {@code closed} closed levels; none without -Drates. */
  public List<PopulationBuilder> rates(ProtocolBuilder protocol, int closed) {
    List<PopulationBuilder> steps = new ArrayList<>();
    String prefix = framework == null ? "" : framework + " ";
    String tag = "(" + mode.label() + ")";
    Faults faults = echo.faults();
    params.rates().ifPresent(rates -> {
      OpenLoad open = OpenLoad.of(rates).during(params.duration()).ramp(params.ramp())
          .maxInFlight(params.maxInFlight())
          .levels(r -> Level.rate(framework, r, mode), (prefix + mode.label()).trim())
          .around(i -> startGate(closed + i), stopIfFailing(), faults.isEmpty() ? (name, at) -> { } : faults::startAt,
              going());
      for (PopulationBuilder p : open.populations(prefix + "rates " + tag, echo.framework().echoCall(prefix + "echo",
          params))) {
        steps.add(withProtocol(p, protocol));
      }
      run.onSummaryWritten(openLevelVerdict(rates.auto()));
    });
    return steps;
  }

  /**
   * A closed level's loop by time: its users call until {@code duration} is over or every call has
   * failed too long. One lambda for every level and the rehearsal: the JIT sees one class here.
   */
  private static ChainBuilder timed(ActionBuilder call, Duration duration, BooleanSupplier going) {
    return asLongAsDuring(session -> going.getAsBoolean(), duration).on(exec(call));
  }

  private ActionBuilder call(String request) {
    return echo.framework().echoCall(request, params);
  }

  /**
   * With {@code -DstartAt}, level {@code k}'s users pause until the level's planned start, so that
   * injectors run each level at the same time: Gatling starts a population on its injector's next
   * 1-second tick after the previous one ends, and those ticks differ between JVMs. Level k is planned
   * at startAt + k x (ramp + settle + duration + timeout + 2 s): the previous level's last calls end within its
   * timeout, the next tick within a second. With {@code -Dcalls} only the first level is planned.
   */
  private ChainBuilder startGate(int k) {
    Optional<Instant> at = params.injector().startAt()
        .filter(start -> k == 0 || params.calls().isEmpty())
        .map(start -> start.plus(params.ramp().plus(params.settle().fixed()).plus(params.duration())
            .plus(params.timeout()).plus(LEVEL_GAP).multipliedBy(k)));
    if (at.isEmpty()) {
      return exec(session -> session);
    }
    long due = at.get().toEpochMilli();
    AtomicBoolean told = new AtomicBoolean();
    return exec(session -> {
      long left = due - System.currentTimeMillis();
      if (told.compareAndSet(false, true)) { // one line a level: the progress of a -Dinjectors run
        System.out.println(left >= 0 ? "injector: level " + (k + 1) + " starts at " + at.get()
            + (k == 0 ? " (-DstartAt)" : "") + ", in " + Numbers.fmt(left / 1000.0, 1) + " s"
            : "WARNING: level " + (k + 1) + " starts " + Numbers.fmt(-left / 1000.0, 1) + " s after its planned"
            + " start " + at.get() + (k == 0 ? " (-DstartAt): the warm-up overran it" : "") + "; the merge flags it");
      }
      return session;
    }).pause(session -> Duration.ofMillis(Math.max(0, due - System.currentTimeMillis())));
  }

  /**
   * Stops the whole run, with Gatling's own mechanism, when every call has failed for
   * {@code -DmaxFailingSeconds}: said once, and the run exits with status 2 after its reports (a server
   * that died after a long good stretch leaves the KO share under -DmaxKoPercent).
   */
  private ChainBuilder stopIfFailing() {
    Duration limit = params.maxFailingSeconds();
    String message = "every call failed for " + limit.toSeconds() + " s (-DmaxFailingSeconds): the server is down or"
        + " does not answer this protocol; stopping the run";
    return stopLoadGeneratorIf(message, session -> {
      if (!run.watch().failingFor(limit)) {
        return false;
      }
      if (run.watch().firstToSay()) {
        System.err.println("error: " + message);
        run.exit().fail("the run was stopped because every call failed (see above)");
      }
      return true;
    });
  }

  /**
   * Gatling assertions, one per closed level and trial: a level with more than {@code -DmaxKoPercent} KO fails
   * the run (Gatling exits with status 2 and the Maven build fails).
   */
  public List<Assertion> assertions(Trials trials) {
    double max = params.maxKoPercent();
    return params.levels().stream().flatMap(clients -> trials.numbers().stream()
            .map(t -> details(Level.closed(framework, clients, mode).trial(t).name()).failedRequests().percent().lte(max)))
        .toList();
  }

  /**
   * The KO check of rate levels, from the summary (auto levels are named at run time, after Gatling's
   * assertions are fixed): a level above {@code -DmaxKoPercent} fails the run. With {@code -Drates=auto}
   * a saturated level is exempt: the search goes past the capacity on purpose, and a server that
   * refuses calls there (Dubbo's full thread pool, Thrift's resets) is what the report is for.
   */
  private SummaryListener openLevelVerdict(boolean auto) {
    return new SummaryListener() {
      @Override
      public List<String> written(Path folder, List<RequestStats> requests, RunAnalysis analysis,
                                  boolean interrupted) {
        return openLevelFailures(requests, analysis, framework, mode, params.maxKoPercent(), auto);
      }

      @Override
      public String what() {
        return "the KO check of the rate levels";
      }
    };
  }

  /** Why the rate levels of {@code framework} and {@code mode} fail the run: a KO share above the limit, or no call at all. */
  static List<String> openLevelFailures(List<RequestStats> requests, RunAnalysis analysis, String framework,
                                        InvocationMode mode, double maxKoPercent, boolean auto) {
    List<String> failures = new ArrayList<>();
    for (RequestStats r : requests) {
      Level level = r.level();
      if (!r.isOpen() || level == null || level.kind() != Level.Kind.RATE || level.duringFault()
          || !java.util.Objects.equals(level.framework(), framework) || level.mode() != mode) {
        continue;
      }
      if (auto && analysis.level(r.name()).map(RunAnalysis.Assessment::saturation)
          .filter(Saturation::saturated).isPresent()) {
        continue;
      }
      if (r.count() == 0) {
        failures.add(r.name() + ": no call was made: " + (r.open().dropped() > 0 ? "all " + r.open().dropped()
            + " calls due were dropped at the cap of " + r.open().maxInFlight() + " in flight (-DmaxInFlight)"
            : "none was sent before the run ended"));
        continue;
      }
      double koPercent = 100.0 * r.ko() / r.count();
      if (koPercent > maxKoPercent) {
        failures.add(r.name() + ": " + Numbers.fmt(koPercent, 2) + "% of its calls failed (" + r.ko() + " of "
            + r.count() + ", " + r.open().dropped() + " dropped), above -DmaxKoPercent=" + maxKoPercent);
      }
    }
    return failures;
  }

  /** Each population gets the framework's protocol and the run's, so every call reaches this run. */
  private PopulationBuilder withProtocol(PopulationBuilder p, ProtocolBuilder protocol) {
    return p.protocols(protocol, run.protocol());
  }

  /** A closed level's clock with a ramp: started by its first user; the level is full after the ramp. */
  private static final class LevelClock {
    private final long rampNanos;
    private final long durationNanos;
    private volatile long start;

    LevelClock(Duration ramp, Duration duration) {
      this.rampNanos = ramp.toNanos();
      this.durationNanos = duration.toNanos();
    }

    Function<Session, Session> starts() {
      return session -> {
        if (start == 0) {
          synchronized (this) {
            if (start == 0) {
              start = System.nanoTime();
            }
          }
        }
        return session;
      };
    }

    boolean ramping() {
      return System.nanoTime() - start < rampNanos;
    }

    boolean running() {
      return System.nanoTime() - start < rampNanos + durationNanos;
    }
  }
}
