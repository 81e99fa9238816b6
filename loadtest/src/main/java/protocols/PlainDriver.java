package protocols;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import protocols.core.CallTimer;
import protocols.core.ComparisonReport;
import protocols.core.EchoRun;
import protocols.core.GatlingLoops;
import protocols.core.HostPort;
import protocols.core.InvocationMode;
import protocols.core.LatencyRecorder;
import protocols.core.LoadParams;
import protocols.core.RpcClient;
import protocols.core.RpcFramework;
import protocols.core.RpcMethod;
import protocols.core.Warmup;

/**
 * The same closed-loop load without Gatling: plain Java threads drive one framework's client
 * component ({@link RpcClient}, the one the Gatling action uses) through the same levels, mode and
 * duration (or calls), timing each call with {@code System.nanoTime()} into the same µs recorder.
 * Gatling's throughput divided by this driver's shows what the harness costs. The shootout runs it
 * with {@code -Dplain=true}, one JVM per framework and mode; it writes an rpc-summary-style JSON.
 *
 * <pre>java -Dplain.framework=dubbo -Dtarget=127.0.0.1:20880 -Dplain.out=plain.json [-Dlevels=...]
 *     [-Dduration=...] [-Dcalls=...] [-Dwarmup=...] [-Dmode=async|sync] protocols.PlainDriver</pre>
 */
public final class PlainDriver {

  private PlainDriver() {}

  public static void main(String[] args) throws Exception {
    LoadParams params = EchoRun.orExit(() -> LoadParams.fromSystemProperties().validate());
    RpcFramework<?, ?> framework = EchoRun.orExit(() -> Frameworks.byName(params.string("plain.framework", "")));
    InvocationMode mode = EchoRun.orExit(params::mode);
    HostPort target = EchoRun.orExit(() -> params.target().orElseThrow(
        () -> new IllegalArgumentException("the plain driver needs -Dtarget=host:port")));
    Path out = Paths.get(params.string("plain.out", "plain-driver.json"));
    int code = run(framework, params, mode, target, out);
    System.exit(code); // some frameworks leave non-daemon threads behind
  }

  private static <C extends RpcClient, R> int run(RpcFramework<C, R> framework, LoadParams params,
                                                  InvocationMode mode, HostPort target,
                             Path out) throws InterruptedException, IOException {
    LatencyRecorder recorder = new LatencyRecorder();
    Map<String, Double> cpuPerCall = new LinkedHashMap<>();
    boolean complete = true;
    // Event loops like Gatling's: the clients that can run on them (gRPC, the ceiling) get the same
    // connections, one per loop, as in the Gatling run, and each user's calls stay on one loop.
    EventLoopGroup loops = GatlingLoops.newGroup();
    try (C client = framework.newClient(params, target, mode, params.timeout(), loops);
         CallTimer timeouts = new CallTimer(framework.name())) {
      Driver<C, R> driver = new Driver<>(framework, client, framework.echo(client), mode, params.timeout().toMillis(),
          params.syncThreads(), params, timeouts);
      List<Integer> levels = params.levels();
      Warmup.Plan warmup = params.warmup();
      int users = Math.min(20, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
      if (warmup.auto()) {
        // As Gatling's auto warm-up: 1-second rounds until the last ones are stable, bounded.
        AtomicLongArray rounds = new AtomicLongArray((int) warmup.max().toSeconds() + 1);
        int n = 0;
        while (n < rounds.length() && !Warmup.isStable(rounds, n)) {
          LatencyRecorder round = new LatencyRecorder();
          complete &= driver.level(users, Duration.ofSeconds(1), Optional.empty(), round, "warm-up");
          rounds.set(n++, round.count("warm-up"));
        }
      } else if (!warmup.skipped()) {
        complete &= driver.level(users, warmup.fixed(), Optional.empty(), new LatencyRecorder(), "warm-up");
      }
      for (int clients : levels) {
        String name = EchoRun.requestName("", clients, mode);
        long cpu0 = processCpuNanos();
        complete &= driver.level(clients, params.duration(), params.calls(), recorder, name);
        long cpu = processCpuNanos() - cpu0;
        long calls = recorder.count(name);
        if (cpu0 >= 0 && calls > 0) {
          cpuPerCall.put(name, Math.round(cpu / 1e3 / calls * 100) / 100.0);
        }
      }
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("driver", "plain");
    run.put("framework", framework.name());
    run.put("mode", mode.label());
    run.put("target", target.toString());
    run.put("complete", complete);
    run.put(ComparisonReport.PLAIN_CPU_PER_CALL, cpuPerCall);
    recorder.writeSummaryTo(out, run);
    System.out.println("plain driver " + framework.name() + " (" + mode.label() + "): " + out.toAbsolutePath());
    return complete ? 0 : 1;
  }

  /** This JVM's CPU time so far, all threads, in ns; -1 where the JVM does not say. */
  private static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
  }

  /** Closed-loop users: each issues its next call when the previous one completed. */
  private record Driver<C extends RpcClient, R>(RpcFramework<C, R> framework, C client, RpcMethod<C, R, R> echo,
                                                InvocationMode mode, long timeoutMillis, int syncThreads,
                                                LoadParams params, CallTimer timeouts) {

    /** Runs one level; false if it had to be cut short. */
    boolean level(int clients, Duration duration, Optional<Integer> calls, LatencyRecorder recorder, String name)
        throws InterruptedException {
      long deadline = System.nanoTime() + duration.toNanos();
      CountDownLatch done = new CountDownLatch(clients);
      ExecutorService threads = null;
      if (mode == InvocationMode.ASYNC) {
        for (int i = 0; i < clients; i++) {
          new AsyncUser(calls.orElse(-1), deadline, recorder, name, done).next();
        }
      } else {
        // As the Gatling run's sync pool: at most syncThreads blocking calls at once.
        threads = Executors.newFixedThreadPool(Math.min(clients, syncThreads));
        for (int i = 0; i < clients; i++) {
          long budget = calls.orElse(-1);
          threads.execute(() -> {
            for (long n = 0; budget < 0 ? System.nanoTime() < deadline : n < budget; n++) {
              R request = framework.order(ThreadLocalRandom.current().nextLong(), params);
              long start = System.nanoTime();
              boolean ok;
              try {
                ok = Objects.equals(request, echo.callSync(client, request, timeoutMillis));
              } catch (Exception e) {
                ok = false;
              }
              recorder.record(name, start, System.nanoTime(), ok);
            }
            done.countDown();
          });
        }
      }
      // Bounded: the level's time, plus every call's timeout, plus slack; or, with -Dcalls, an hour.
      long limitMillis = calls.isPresent() ? TimeUnit.HOURS.toMillis(1) : duration.toMillis() + timeoutMillis + 30_000;
      boolean finished = done.await(limitMillis, TimeUnit.MILLISECONDS);
      if (threads != null) {
        threads.shutdownNow();
      }
      return finished;
    }

    private final class AsyncUser {
      private final AtomicLong remaining;
      private final long deadline;
      private final LatencyRecorder recorder;
      private final String name;
      private final CountDownLatch done;

      AsyncUser(long calls, long deadline, LatencyRecorder recorder, String name, CountDownLatch done) {
        this.remaining = new AtomicLong(calls);
        this.deadline = deadline;
        this.recorder = recorder;
        this.name = name;
        this.done = done;
      }

      private boolean finished() {
        return remaining.get() < 0 ? System.nanoTime() >= deadline : remaining.getAndDecrement() <= 0;
      }

      void next() {
        while (!finished()) {
          R request = framework.order(ThreadLocalRandom.current().nextLong(), params);
          long start = System.nanoTime();
          CompletableFuture<R> call;
          try {
            // The same timeout as the Gatling path: the framework's own deadline, or the one timer wheel.
            call = timeouts.within(echo, echo.callAsync(client, request).toCompletableFuture(), timeoutMillis);
          } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
          }
          if (!call.isDone()) {
            // Continue on the framework's thread when the reply comes; this stack unwinds now.
            call.whenComplete((reply, error) -> {
              recorder.record(name, start, System.nanoTime(), error == null && Objects.equals(request, reply));
              next();
            });
            return;
          }
          boolean ok = !call.isCompletedExceptionally() && Objects.equals(request, call.getNow(null));
          recorder.record(name, start, System.nanoTime(), ok);
        }
        done.countDown();
      }
    }
  }
}
