package protocols.shootout;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import protocols.rpc.CallTimer;
import protocols.lab.EchoRun;
import protocols.lab.Endpoints;
import protocols.rpc.GatlingLoops;
import protocols.rpc.HostPort;
import protocols.rpc.InvocationMode;
import protocols.stats.LatencyRecorder;
import protocols.lab.LoadParams;
import protocols.rpc.RpcClient;
import protocols.lab.RpcFramework;
import protocols.lab.Trials;
import protocols.rpc.RpcMethod;
import protocols.load.Warmup;
import protocols.frameworks.Frameworks;
import protocols.stats.RequestStats;
import protocols.stats.Level;
import protocols.stats.RunInfo;
import protocols.stats.Summaries;

/**
 * The same closed-loop load without Gatling: plain Java threads drive one framework's client
 * component ({@link RpcClient}, the one the Gatling action uses) through the same levels, mode and
 * duration (or calls), timing each call with {@code System.nanoTime()} into the same µs recorder.
 * Gatling's throughput divided by this driver's shows what the harness costs. The shootout runs it
 * with {@code -Dplain=true}, one JVM per framework and mode; it writes an rpc-summary-style JSON.
 *
 * <pre>java -Dplain.framework=dubbo -Dtarget=127.0.0.1:20880 -Dplain.out=plain.json [-Dlevels=...]
 *     [-Dduration=...] [-Dcalls=...] [-Dwarmup=...] [-Drepeat=N] [-Dmode=async|sync|callback]
 *     protocols.shootout.PlainDriver</pre>
 */
public final class PlainDriver {

  /** The warm-up's calls, recorded apart from the levels'. */
  private static final String WARMUP = "warm-up";
  /** The warm-up's steadiness rule, as a Gatling run's ({@link Warmup#isStable(AtomicLongArray, int)}). */
  private static final int WARMUP_WINDOWS = Warmup.STABLE_WINDOWS;

  private PlainDriver() {}

  public static void main(String[] args) throws Exception {
    LoadParams params = EchoRun.orExit(() -> LoadParams.fromSystemProperties().validate());
    RpcFramework<?, ?> framework = EchoRun.orExit(() -> Frameworks.byName(params.string("plain.framework", "")));
    InvocationMode mode = EchoRun.orExit(params::mode);
    HostPort target = EchoRun.orExit(() -> params.target().orElseThrow(
        () -> new IllegalArgumentException("the plain driver needs -Dtarget=host:port")));
    Path out = Paths.get(params.string("plain.out", "plain-driver.json"));
    Endpoints endpoints = EchoRun.orExit(() -> Endpoints.direct(target).withTls(params.clientTls().orElse(null)));
    int code = run(framework, params, mode, endpoints, out);
    System.exit(code); // some frameworks leave non-daemon threads behind
  }

  static <C extends RpcClient, R> int run(RpcFramework<C, R> framework, LoadParams params, InvocationMode mode,
                                          HostPort target, Path out) throws InterruptedException, IOException {
    return run(framework, params, mode, Endpoints.direct(target), out);
  }

  /** The same to {@code target}'s one server, over TLS if it says so. */
  static <C extends RpcClient, R> int run(RpcFramework<C, R> framework, LoadParams params, InvocationMode mode,
                                          Endpoints target, Path out) throws InterruptedException, IOException {
    LatencyRecorder recorder = new LatencyRecorder();
    Map<String, Double> cpuPerCall = new LinkedHashMap<>();
    List<RunInfo.WarmupOutcome> warmupOutcome = new ArrayList<>();
    List<RunInfo.WarmupOutcome> settleOutcomes = new ArrayList<>();
    boolean complete = true;
    // Event loops like Gatling's: the clients that can run on them (gRPC, the ceiling) get the same
    // connections, one per loop, as in the Gatling run, and each user's calls stay on one loop.
    EventLoopGroup loops = GatlingLoops.newGroup();
    try (C client = framework.newClient(params, target, mode, params.timeout(), loops);
         CallTimer timeouts = new CallTimer(framework.name())) {
      Driver<C, R> driver = new Driver<>(framework, client, framework.echo(client), mode, params.timeout().toMillis(),
          params.koPause().toNanos(), params.syncThreads(), params, timeouts, new AtomicLong());
      List<Integer> levels = params.levels();
      Warmup.Plan warmup = params.warmup();
      Warmup.Plan settle = params.settle();
      if (!warmup.skipped()) {
        int users = Math.min(20, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
        complete &= untilSteady(driver, users, warmup, WARMUP, WARMUP_WINDOWS, Level.warmup(null, mode).name(),
            warmupOutcome);
      }
      // -Drepeat: each level's trials one after the other, each settled as a Gatling trial is.
      Trials trials = Trials.of(params, 1);
      for (int clients : levels) {
        for (int trial : trials.numbers()) {
          Level level = Level.closed(null, clients, mode).trial(trial);
          String name = level.name();
          if (!settle.skipped()) {
            complete &= untilSteady(driver, clients, settle, level.settle().name(), Warmup.SETTLE_WINDOWS, name,
                settleOutcomes);
          }
          recorder.describe(name, level);
          long cpu0 = processCpuNanos();
          long deadline = System.nanoTime() + params.duration().toNanos();
          complete &= driver.level(clients, params.duration(), () -> System.nanoTime() < deadline, params.calls(),
              recorder, name, () -> { });
          long cpu = processCpuNanos() - cpu0;
          long calls = recorder.count(name);
          if (cpu0 >= 0 && calls > 0) {
            cpuPerCall.put(name, Math.round(cpu / 1e3 / calls * 100) / 100.0);
          }
        }
      }
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
    RunInfo run = RunInfo.ofPlainDriver(framework.name(), mode.label(), target.targets().get(0).toString(), complete,
        warmupOutcome.isEmpty() ? null : warmupOutcome.get(0), cpuPerCall, settleOutcomes);
    Summaries.write(out, new Summaries.Summary(run, List.of(), recorder.snapshot(), Map.of()));
    System.out.println("plain driver " + framework.name() + " (" + mode.label() + "): " + out.toAbsolutePath());
    return complete ? 0 : 1;
  }

  /**
   * The warm-up, or a level's settle, as Gatling's: its users call under {@code name} without a break
   * until the plan says stop (a fixed time, or OK completions per second steady for the last {@code
   * windows} seconds, at most its limit); {@code outcome} gets what it did, as {@code request}'s.
   */
  private static <C extends RpcClient, R> boolean untilSteady(Driver<C, R> driver, int users, Warmup.Plan plan,
                                                              String name, int windows, String request,
                                                              List<RunInfo.WarmupOutcome> outcome)
      throws InterruptedException {
    LatencyRecorder calls = new LatencyRecorder();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean stable = new AtomicBoolean();
    long start = System.nanoTime();
    long limit = start + plan.limit().toNanos();
    long startedBefore = driver.usersStarted().get();
    boolean complete = driver.level(users, plan.limit(), () -> !stop.get() && System.nanoTime() < limit,
        Optional.empty(), calls, name, () -> {
          if (plan.auto() && !stop.get()) {
            long[] ok = calls.stats(name).map(RequestStats::okWindows).orElse(new long[0]);
            int full = (int) Math.min(ok.length, (System.nanoTime() - start) / 1_000_000_000L);
            if (Warmup.isStable(new AtomicLongArray(ok), full, windows)) {
              stable.set(true);
              stop.set(true);
            }
          }
        });
    // usersStarted: once each, as they never stop between checks
    outcome.add(new RunInfo.WarmupOutcome(request, plan.describe(), Math.round((System.nanoTime() - start) / 1e8) / 10.0,
        plan.auto() ? stable.get() : null, users, driver.usersStarted().get() - startedBefore));
    return complete;
  }

  /** This JVM's CPU time so far, all threads, in ns; -1 where the JVM does not say. */
  private static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
  }

  /**
   * Closed-loop users: each issues its next call when the previous one completed, and pauses after a
   * call that failed at once as a Gatling user does ({@code -DkoPauseMillis}).
   */
  private record Driver<C extends RpcClient, R>(RpcFramework<C, R> framework, C client, RpcMethod<C, R, R> echo,
                                                InvocationMode mode, long timeoutMillis, long koPauseNanos,
                                                int syncThreads, LoadParams params, CallTimer timeouts,
                                                AtomicLong usersStarted) {

    /**
     * Runs one level: its users call while {@code more} says so (and, with {@code calls}, until each
     * made that many); {@code eachSecond} runs on this thread once a second meanwhile. False if it had
     * to be cut short.
     */
    boolean level(int clients, Duration planned, BooleanSupplier more, Optional<Integer> calls,
                  LatencyRecorder recorder, String name, Runnable eachSecond) throws InterruptedException {
      CountDownLatch done = new CountDownLatch(clients);
      usersStarted.addAndGet(clients);
      ExecutorService threads = null;
      if (mode != InvocationMode.SYNC) {
        for (int i = 0; i < clients; i++) {
          new AsyncUser(calls.orElse(-1), more, recorder, name, done).next();
        }
      } else {
        // As the Gatling run's sync pool: at most syncThreads blocking calls at once.
        threads = Executors.newFixedThreadPool(Math.min(clients, syncThreads));
        for (int i = 0; i < clients; i++) {
          long budget = calls.orElse(-1);
          threads.execute(() -> {
            for (long n = 0; budget < 0 ? more.getAsBoolean() : n < budget; n++) {
              R request = framework.order(ThreadLocalRandom.current().nextLong(), params);
              long start = System.nanoTime();
              Throwable error = null;
              boolean ok;
              try {
                ok = Objects.equals(request, echo.callSync(client, request, timeoutMillis));
              } catch (Exception e) {
                ok = false;
                error = e;
              }
              long end = System.nanoTime();
              recorder.record(name, start, end, ok);
              if (failedAtOnce(error, end - start)) {
                try {
                  TimeUnit.NANOSECONDS.sleep(koPauseNanos);
                } catch (InterruptedException e) {
                  break;
                }
              }
            }
            done.countDown();
          });
        }
      }
      // Bounded: the level's time, plus every call's timeout, plus slack; or, with -Dcalls, an hour.
      long limit = System.nanoTime() + (calls.isPresent() ? TimeUnit.HOURS.toNanos(1)
          : planned.plusMillis(timeoutMillis).plusSeconds(30).toNanos());
      boolean finished = false;
      while (!finished && System.nanoTime() < limit) {
        finished = done.await(1, TimeUnit.SECONDS);
        eachSecond.run();
      }
      if (threads != null) {
        threads.shutdownNow();
      }
      return finished;
    }

    /** As the Gatling action: an error that was not a timeout and came before the pause itself would. */
    boolean failedAtOnce(Throwable error, long elapsedNanos) {
      return RpcClient.pausesAfter(error, error != null && client.timedOut(error), elapsedNanos, koPauseNanos);
    }

    private final class AsyncUser {
      private final AtomicLong remaining;
      private final BooleanSupplier more;
      private final LatencyRecorder recorder;
      private final String name;
      private final CountDownLatch done;

      AsyncUser(long calls, BooleanSupplier more, LatencyRecorder recorder, String name, CountDownLatch done) {
        this.remaining = new AtomicLong(calls);
        this.more = more;
        this.recorder = recorder;
        this.name = name;
        this.done = done;
      }

      private boolean finished() {
        return remaining.get() < 0 ? !more.getAsBoolean() : remaining.getAndDecrement() <= 0;
      }

      void next() {
        while (!finished()) {
          R request = framework.order(ThreadLocalRandom.current().nextLong(), params);
          long start = System.nanoTime();
          CompletableFuture<R> call;
          try {
            // The same timeout as the Gatling path: the framework's own deadline, or the one timer wheel.
            call = timeouts.within(echo, echo.start(client, request, mode), timeoutMillis);
          } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
          }
          if (!call.isDone()) {
            // Continue on the framework's thread when the reply comes; this stack unwinds now.
            call.whenComplete((reply, error) -> {
              if (completed(request, reply, error, start)) {
                next();
              }
            });
            return;
          }
          R reply = call.isCompletedExceptionally() ? null : call.getNow(null);
          Throwable error = call.isCompletedExceptionally() ? call.handle((r, e) -> e).join() : null;
          if (!completed(request, reply, error, start)) {
            return;
          }
        }
        done.countDown();
      }

      /** Records a call; false when the user pauses first (it goes on from the timer). */
      private boolean completed(R request, R reply, Throwable error, long start) {
        long end = System.nanoTime();
        recorder.record(name, start, end, error == null && Objects.equals(request, reply));
        if (failedAtOnce(error, end - start)) {
          timeouts.schedule(this::next, TimeUnit.NANOSECONDS.toMillis(koPauseNanos));
          return false;
        }
        return true;
      }
    }
  }
}
