package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.asLongAsDuring;
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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * One framework in a run: its server (embedded in its own JVM unless a target is given), its
 * protocol as the -D parameters configure it, and the populations that step through the levels.
 * Any bad input ends the JVM here with one line on stderr and exit code 1, before Gatling starts a user.
 */
public final class EchoRun {
  private static final int CONNECT_CHECK_MILLIS = 3_000;
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
  static final String WARMUP = "warm-up";
  private static final String COUNTER = "rpcCall";

  private final RpcFramework<?, ?> framework;
  private final LoadParams params;
  private final EmbeddedServer server;
  private final HostPort target;
  private final Faults faults;

  private EchoRun(RpcFramework<?, ?> framework, LoadParams params, EmbeddedServer server, HostPort target) {
    this.framework = framework;
    this.params = params;
    this.server = server;
    this.target = target;
    this.faults = new Faults(params.faults(), server, !params.faultsInLevel());
  }

  /**
   * Starts the framework's embedded server or, when {@code targetParam} (e.g. {@code target}) is
   * given, checks that the target accepts connections.
   */
  public static EchoRun start(RpcFramework<?, ?> framework, LoadParams params, String targetParam) {
    return orExit(() -> {
      List<String> args = framework.serverArgs(params); // checks the framework's own -D parameters
      if (params.target(targetParam).isPresent()) {
        if (!params.faults().isEmpty()) {
          throw new IllegalArgumentException("-Dfaults acts on the embedded server; leave out -D" + targetParam);
        }
        if (params.serverDelayUs().isPresent()) {
          throw new IllegalArgumentException("-DserverDelayUs sets the embedded server's --delay-us; leave out -D"
              + targetParam + ", or start your server with --delay-us");
        }
        HostPort target = params.target(targetParam).get();
        checkReachable(framework.name(), target, targetParam);
        probe(framework, params, target, "-D" + targetParam);
        return new EchoRun(framework, params, null, target);
      }
      EmbeddedServer server = EmbeddedServer.start(framework.name(), framework.serverMainClass(), args);
      try {
        probe(framework, params, server.address(), "embedded");
      } catch (IllegalStateException e) {
        server.close();
        throw e;
      }
      return new EchoRun(framework, params, server, server.address());
    });
  }

  /**
   * One real echo before the first level: accepting TCP proves nothing (a server of another framework
   * accepts too), so a run against a wrong or dead server ends here with one line, not with levels of KOs.
   */
  public static <C extends RpcClient, R> void probe(RpcFramework<C, R> framework, LoadParams params, HostPort target,
                                                    String source) {
    Duration timeout = params.timeout().compareTo(PROBE_TIMEOUT) > 0 ? params.timeout() : PROBE_TIMEOUT;
    R order = framework.order(1, params);
    R reply = null;
    String limit = null;
    try (C client = framework.newClient(params, target, InvocationMode.ASYNC, timeout)) {
      try {
        reply = framework.echo(client).callAsync(client, order).toCompletableFuture().get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | RuntimeException e) {
        limit = client.sizeLimit(Errors.unwrap(e), order);
        if (limit == null) {
          throw e;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while probing the " + framework.name() + " server at " + target);
    } catch (Exception | LinkageError e) {
      Throwable cause = e instanceof TimeoutException ? e : Errors.unwrap(e);
      throw new IllegalStateException("the server at " + target + " (" + source + ") does not answer a "
          + framework.name() + " echo call: " + (cause instanceof TimeoutException ? "no reply within "
          + timeout.toMillis() + " ms" : Errors.rootMessage(cause)));
    }
    if (limit != null) {
      throw new IllegalStateException("the first " + framework.name() + " echo call to " + target + " (" + source
          + ") failed: " + limit);
    }
    if (!order.equals(reply)) {
      throw new IllegalStateException("the server at " + target + " (" + source + ") answered a " + framework.name()
          + " echo call with a different order: it is not an echo server of this contract");
    }
  }

  /** Runs {@code step}; an {@link IllegalArgumentException} or {@link IllegalStateException} ends the JVM with one line (exit 1). */
  public static <T> T orExit(Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw exit(e.getMessage(), e);
    }
  }

  /** Ends the JVM with {@code error: <message>} on stderr and exit code 1; returns {@code e} for a {@code throw}. */
  static RuntimeException exit(String message, RuntimeException e) {
    System.err.println("error: " + message);
    System.err.flush();
    System.exit(1);
    return e;
  }

  static void checkReachable(String framework, HostPort target, String targetParam) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_CHECK_MILLIS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach the " + framework + " server at " + target + " (-D" + targetParam
          + "): " + Errors.oneLine(e));
    }
  }

  public RpcFramework<?, ?> framework() {
    return framework;
  }

  public LoadParams params() {
    return params;
  }

  public HostPort target() {
    return target;
  }

  /** The framework's protocol with the shared -D parameters, the target and {@code mode} applied. */
  public ProtocolBuilder protocol(InvocationMode mode) {
    return orExit(() -> framework.configured(params, target, mode));
  }

  private static final Pattern RAMP = Pattern.compile(
      ".*\\bramp to \\d+ (clients|calls/s) \\(\\w+\\)$");

  /** Whether a request name is a warm-up's or a ramp's, whose figures are not measurements. */
  public static boolean notMeasured(String requestName) {
    return requestName.contains(WARMUP + " (") || RAMP.matcher(requestName).matches();
  }

  /** The request name of one level, e.g. {@code echo 20 clients (async)} with an optional prefix. */
  public static String requestName(String prefix, int clients, InvocationMode mode) {
    return prefix + "echo " + clients + " clients (" + mode.label() + ")";
  }

  /** The request name of one open-model level, e.g. {@code echo 5000 calls/s (async)}. */
  public static String rateName(String prefix, int callsPerSecond, InvocationMode mode) {
    return prefix + "echo " + callsPerSecond + " calls/s (" + mode.label() + ")";
  }

  /** Whether {@code requestName} is an open-model level of this prefix and mode, as {@link #rateName} names them. */
  static boolean isRateLevel(String requestName, String prefix, InvocationMode mode) {
    return requestName.startsWith(prefix + "echo ") && requestName.endsWith(" calls/s (" + mode.label() + ")");
  }

  /** The ramp before a level, {@code ramp to 20 clients (async)} or {@code ramp to 5000 calls/s (async)}: not measured. */
  static String rampName(String prefix, String level, InvocationMode mode) {
    return prefix + "ramp to " + level + " (" + mode.label() + ")";
  }

  /**
   * The warm-up, then one scenario per level. Each level's users are persistent clients calling in a
   * loop, and its requests are named by {@link #requestName}, so Gatling's report gives every level
   * its own line.
   *
   * @param prefix put before request and scenario names (the shootout's framework name), or ""
   * @param protocol set on each scenario (the shootout's), or null to use the simulation's
   */
  public List<PopulationBuilder> populations(String prefix, InvocationMode mode, ProtocolBuilder protocol) {
    List<PopulationBuilder> steps = new ArrayList<>();
    String tag = "(" + mode.label() + ")";
    List<Integer> levels = params.levels();
    Warmup.Plan warmup = params.warmup();
    Duration failing = params.maxFailingSeconds();
    Duration ramp = params.ramp();
    if (!warmup.skipped()) {
      int users = Math.min(20, levels.stream().mapToInt(Integer::intValue).max().orElse(20));
      String name = prefix + WARMUP + " " + tag;
      steps.add(withProtocol(scenario(name)
          .exec(Warmup.loop(name, warmup, framework.echoCall(name, params), failing), stopIfFailing(failing))
          .injectOpen(atOnceUsers(users)), protocol));
    }
    for (int clients : levels) {
      String request = requestName(prefix, clients, mode);
      ActionBuilder call = framework.echoCall(request, params);
      // Users leave the loop once every call has failed for -DmaxFailingSeconds; the run then stops.
      LevelClock clock = new LevelClock(ramp, params.duration());
      ChainBuilder loop = params.calls()
          .map(n -> asLongAs(session -> session.getInt(COUNTER) < n && !FailureWatch.failingFor(failing), COUNTER)
              .on(exec(call)))
          .orElseGet(() -> ramp.isZero()
              ? asLongAsDuring(session -> !FailureWatch.failingFor(failing), params.duration()).on(exec(call))
              : asLongAs(session -> clock.running() && !FailureWatch.failingFor(failing)).on(exec(call)));
      ChainBuilder level = faults.isEmpty() ? loop : faults.startsLevel(request).exec(loop);
      if (!ramp.isZero()) {
        // Users join evenly over the ramp and call under the ramp's name until the level is full.
        ActionBuilder rampCall = framework.echoCall(rampName(prefix, clients + " clients", mode), params);
        level = exec(clock.starts()).exec(asLongAs(session -> clock.ramping() && !FailureWatch.failingFor(failing))
            .on(exec(rampCall))).exec(level);
      }
      level = startGate(steps.size() - (warmup.skipped() ? 0 : 1)).exec(level);
      steps.add(withProtocol(scenario(prefix + clients + " clients " + tag)
          .exec(level, stopIfFailing(failing))
          .injectOpen(ramp.isZero() ? atOnceUsers(clients) : rampUsers(clients).during(ramp)), protocol));
    }
    params.rates().ifPresent(rates -> {
      OpenLoad open = OpenLoad.of(rates).during(params.duration()).ramp(ramp).maxInFlight(params.maxInFlight())
          .named(r -> rateName(prefix, r, mode), r -> rampName(prefix, r + " calls/s", mode),
              (prefix + mode.label()).trim())
          .within(faults, failing);
      int closed = levels.size();
      for (PopulationBuilder p : open.populations(prefix + "rates " + tag,
          framework.echoCall(prefix + "echo", params), i -> startGate(closed + i))) {
        steps.add(withProtocol(p, protocol));
      }
      RunReport.onSummaryWritten(openLevelVerdict(prefix, mode, params.maxKoPercent(), rates.auto()));
    });
    return steps;
  }

  /**
   * With {@code -DstartAt}, level {@code k}'s users pause until the level's planned start, so that
   * injectors run each level at the same time: Gatling starts a population on its injector's next
   * 1-second tick after the previous one ends, and those ticks differ between JVMs. Level k is planned
   * at startAt + k x (ramp + duration + timeout + 2 s): the previous level's last calls end within its
   * timeout, the next tick within a second. With {@code -Dcalls} only the first level is planned.
   */
  private ChainBuilder startGate(int k) {
    Optional<Instant> at = params.injector().startAt()
        .filter(start -> k == 0 || params.calls().isEmpty())
        .map(start -> start.plus(params.ramp().plus(params.duration()).plus(params.timeout()).plus(LEVEL_GAP)
            .multipliedBy(k)));
    if (at.isEmpty()) {
      return exec(session -> session);
    }
    long due = at.get().toEpochMilli();
    java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
    return exec(session -> {
      long left = due - System.currentTimeMillis();
      if (told.compareAndSet(false, true)) { // one line a level: the progress of a -Dinjectors run
        System.out.println(left >= 0 ? "injector: level " + (k + 1) + " starts at " + at.get()
            + (k == 0 ? " (-DstartAt)" : "") + ", in " + Html.fmt(left / 1000.0, 1) + " s"
            : "WARNING: level " + (k + 1) + " starts " + Html.fmt(-left / 1000.0, 1) + " s after its planned start "
            + at.get() + (k == 0 ? " (-DstartAt): the warm-up overran it" : "") + "; the merge flags it");
      }
      return session;
    }).pause(session -> Duration.ofMillis(Math.max(0, due - System.currentTimeMillis())));
  }

  /** Between two levels of injectors started together: a Gatling injector tick and some slack. */
  private static final Duration LEVEL_GAP = Duration.ofSeconds(2);

  /**
   * The KO assertion of open-model levels, checked from the summary (auto levels are named at run
   * time, after Gatling's assertions are fixed): a level above {@code -DmaxKoPercent} fails the run.
   * With {@code -Drates=auto} a saturated level is exempt: the search goes past the capacity on
   * purpose, and a server that refuses calls there (Dubbo's full thread pool, Thrift's resets) is what
   * the report is for.
   */
  static RunReport.SummaryListener openLevelVerdict(String prefix, InvocationMode mode, double maxKoPercent,
                                                    boolean auto) {
    return new RunReport.SummaryListener() {
      @Override
      public void written(Path folder, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                          boolean interrupted) {
        openLevelFailures(requests, analysis, prefix, mode, maxKoPercent, auto).forEach(RunReport::failOnExit);
      }

      @Override
      public String what() {
        return "the KO check of the rate levels";
      }
    };
  }

  /** Why rate levels fail the run: a KO share above the limit, or no call made at all. */
  static List<String> openLevelFailures(List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                                        String prefix, InvocationMode mode, double maxKoPercent, boolean auto) {
    List<String> failures = new ArrayList<>();
    for (LatencyRecorder.RequestStats r : requests) {
      if (!r.isOpen() || !isRateLevel(r.name(), prefix, mode)) {
        continue;
      }
      if (auto && analysis.level(r.name()).map(RunAnalysis.Level::saturation)
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
        failures.add(r.name() + ": " + Html.fmt(koPercent, 2) + "% of its calls failed (" + r.ko() + " of "
            + r.count() + ", " + r.open().dropped() + " dropped), above -DmaxKoPercent=" + maxKoPercent);
      }
    }
    return failures;
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

  /** Stops the whole run, with Gatling's own mechanism, when every call has failed for {@code limit}. */
  static ChainBuilder stopIfFailing(Duration limit) {
    String message = "every call failed for " + limit.toSeconds() + " s (-DmaxFailingSeconds): the server is down or"
        + " does not answer this protocol; stopping the run";
    return stopLoadGeneratorIf(message, session -> FailureWatch.failingFor(limit) && FailureWatch.announce(message));
  }

  /**
   * Gatling assertions, one per level: a level with more than {@code -DmaxKoPercent} KO fails the run
   * (Gatling exits with status 2 and the Maven build fails).
   */
  public List<Assertion> assertions(String prefix, InvocationMode mode) {
    double max = params.maxKoPercent();
    return params.levels().stream()
        .map(clients -> details(requestName(prefix, clients, mode)).failedRequests().percent().lte(max)).toList();
  }

  private static PopulationBuilder withProtocol(PopulationBuilder p, ProtocolBuilder protocol) {
    return protocol == null ? p : p.protocols(protocol);
  }

  /** The populations one after the other: each starts when the previous one has finished. */
  public static PopulationBuilder sequence(List<PopulationBuilder> steps) {
    PopulationBuilder chain = steps.get(steps.size() - 1);
    for (int i = steps.size() - 2; i >= 0; i--) {
      chain = steps.get(i).andThen(chain);
    }
    return chain;
  }

  /**
   * A fresh embedded server (a new process on the same address), so that the next driver finds it as
   * the previous one did; nothing with -Dtarget.
   */
  public void freshServer() {
    if (server != null) {
      server.restart();
    }
  }

  /** Cancels the faults still to come, then stops the embedded server, if this run started one. */
  public void stop() {
    faults.cancel();
    if (server != null) {
      server.close();
    }
  }
}
