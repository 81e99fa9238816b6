package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Faults injected into the embedded server during each level ({@code -Dfaults=kill@10s,restart@13s}),
 * and what they did: when the server went away and came back, the first OK after it came back, when
 * throughput was steady again, and the KOs meanwhile. Calls that start between the first fault and
 * {@link #RECOVERY_BOUND} after the server is back are logged under the level's name plus
 * {@link #SUFFIX}, so the level's own KO assertion judges only the time outside the fault: a framework
 * that recovers within the bound passes, one that does not fails.
 */
public final class Faults {
  /** How long after the server is back calls still count as the fault's: the recovery a client is allowed. */
  public static final Duration RECOVERY_BOUND = Duration.ofSeconds(5);
  public static final String SUFFIX = " during fault";
  /** Throughput is steady again at the first full second after the restart with this share of the pre-fault mean. */
  static final double STEADY_SHARE = 0.9;
  private static final Pattern STEP = Pattern.compile("(kill|restart|stop|cont)@(\\d+)(ms|s)");

  /** One fault: what to do to the server, and when after the level's start. */
  public record Step(String action, Duration at) {
    boolean restores() {
      return action.equals("restart") || action.equals("cont");
    }
  }

  private static final Map<String, Level> LEVELS = new ConcurrentHashMap<>();
  private static volatile boolean any;
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fault-injector");
    t.setDaemon(true);
    return t;
  });

  private final List<Step> steps;
  private final EmbeddedServer server;
  private final boolean apart;
  /** The steps scheduled so far, so that stopping the run cancels those still to come. */
  private final List<ScheduledFuture<?>> scheduled = new CopyOnWriteArrayList<>();
  private volatile boolean cancelled;

  /** @param apart whether a fault window's calls get a row of their own ({@code -DfaultsInLevel=false}) */
  public Faults(List<Step> steps, EmbeddedServer server, boolean apart) {
    this.steps = List.copyOf(steps);
    this.server = server;
    this.apart = apart;
  }

  /** {@code kill@10s,restart@13s}: actions kill, restart, stop (SIGSTOP: a stall), cont; times in s or ms. */
  public static List<Step> parse(String spec) {
    List<Step> out = new ArrayList<>();
    if (spec == null || spec.isBlank()) {
      return out;
    }
    for (String part : spec.split(",", -1)) {
      Matcher m = STEP.matcher(part.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("-Dfaults takes action@time steps, actions kill|restart|stop|cont, times"
            + " like 10s or 500ms, e.g. kill@10s,restart@13s; got '" + spec + "'");
      }
      long n = Long.parseLong(m.group(2));
      out.add(new Step(m.group(1), m.group(3).equals("s") ? Duration.ofSeconds(n) : Duration.ofMillis(n)));
    }
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).at().compareTo(out.get(i - 1).at()) < 0) {
        throw new IllegalArgumentException("-Dfaults steps must be in time order; got '" + spec + "'");
      }
    }
    return List.copyOf(out);
  }

  public boolean isEmpty() {
    return steps.isEmpty();
  }

  /** First in each level's chain: the level's first user starts its faults' clock. */
  public ChainBuilder startsLevel(String request) {
    return exec(session -> {
      startAt(request, System.nanoTime());
      return session;
    });
  }

  /** Starts the faults' clock of the level {@code request} at {@code startNanos} (now or soon). */
  void startAt(String request, long startNanos) {
    LEVELS.computeIfAbsent(request, r -> start(r, startNanos));
  }

  private Level start(String request, long startNanos) {
    Level level = new Level(request, startNanos, steps, apart);
    long delay = Math.max(0, startNanos - System.nanoTime());
    for (Step step : steps) {
      if (!cancelled) {
        scheduled.add(TIMER.schedule(() -> level.apply(step, server), delay + step.at().toNanos(),
            TimeUnit.NANOSECONDS));
      }
    }
    any = true;
    return level;
  }

  /**
   * Cancels every step still to come (a level that ended early, or a -Dcalls level shorter than its
   * faults), and waits for one in progress: called before the server is stopped.
   */
  public void cancel() {
    cancelled = true;
    for (ScheduledFuture<?> f : scheduled) {
      f.cancel(false);
    }
    try {
      TIMER.submit(() -> { }).get(30, TimeUnit.SECONDS); // a step already running ends before this one
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // the step's own error was reported by it
    }
  }

  /** The name a call of {@code request} started at {@code nanos} is logged under. */
  static String name(String request, long nanos) {
    if (!any) {
      return request;
    }
    Level level = LEVELS.get(request);
    return level != null && level.apart && level.inWindow(nanos) ? request + SUFFIX : request;
  }

  /** Whether {@code nanos} falls in a fault window of the level {@code request}: from the first fault to the recovery bound. */
  static boolean inWindow(String request, long nanos) {
    if (!any) {
      return false;
    }
    Level level = LEVELS.get(request);
    return level != null && level.inWindow(nanos);
  }

  /** A call of {@code request} (its level's name) ended at {@code nanos}. */
  static void completed(String request, long startNanos, long endNanos, boolean ok) {
    if (any) {
      Level level = LEVELS.get(request);
      if (level != null) {
        level.completed(startNanos, endNanos, ok);
      }
    }
  }

  /** What the faults did, per level, for the summary and the report. */
  public static List<Map<String, Object>> outcomes() {
    List<Map<String, Object>> out = new ArrayList<>();
    LEVELS.values().stream().sorted((a, b) -> Long.compare(a.start, b.start)).forEach(l -> out.add(l.outcome()));
    return out;
  }

  private static final class Level {
    final String request;
    final long start;
    final long faultStart;
    final boolean restoring;
    final boolean apart;
    final List<Map<String, Object>> events = new CopyOnWriteArrayList<>();
    final Map<Integer, LongAdder> okPerSecond = new ConcurrentHashMap<>();
    final LongAdder koDuringFault = new LongAdder();
    final LongAdder okDuringFault = new LongAdder();
    volatile long restored;
    volatile long firstOkAfterRestore;
    volatile long lastEnd;

    Level(String request, long start, List<Step> steps, boolean apart) {
      this.request = request;
      this.apart = apart;
      this.start = start;
      this.faultStart = start + steps.get(0).at().toNanos();
      this.restoring = steps.get(steps.size() - 1).restores();
    }

    void apply(Step step, EmbeddedServer server) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("action", step.action());
      e.put("plannedSeconds", step.at().toMillis() / 1000.0);
      try {
        switch (step.action()) {
          case "kill" -> server.kill();
          case "restart" -> server.restart();
          case "stop" -> server.signal("STOP");
          case "cont" -> server.signal("CONT");
          default -> throw new IllegalStateException(step.action());
        }
        if (step.restores()) {
          restored = System.nanoTime();
        }
      } catch (RuntimeException ex) {
        e.put("error", Errors.oneLine(ex));
        System.err.println("fault " + step.action() + " in " + request + " failed: " + Errors.oneLine(ex));
      }
      e.put("doneSeconds", seconds(System.nanoTime()));
      events.add(e);
    }

    boolean inWindow(long nanos) {
      if (nanos < faultStart) {
        return false;
      }
      long back = restored;
      return back == 0 || nanos < back + RECOVERY_BOUND.toNanos();
    }

    void completed(long startNanos, long endNanos, boolean ok) {
      if (endNanos > lastEnd) {
        lastEnd = endNanos; // racy max: good to a call, enough to tell whether the level outlived the bound
      }
      if (ok) {
        okPerSecond.computeIfAbsent((int) ((endNanos - start) / 1_000_000_000L), s -> new LongAdder()).increment();
        long back = restored;
        if (back != 0 && firstOkAfterRestore == 0 && startNanos >= back) {
          firstOkAfterRestore = endNanos;
        }
      }
      if (inWindow(startNanos)) {
        (ok ? okDuringFault : koDuringFault).increment();
      }
    }

    double seconds(long nanos) {
      return Math.round((nanos - start) / 1e6) / 1000.0;
    }

    Map<String, Object> outcome() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("request", request);
      m.put("callsApart", apart);
      m.put("events", events);
      m.put("faultStartSeconds", seconds(faultStart));
      m.put("restoredSeconds", restored == 0 ? null : seconds(restored));
      m.put("koDuringFault", koDuringFault.sum());
      m.put("okDuringFault", okDuringFault.sum());
      Long firstOk = restored == 0 || firstOkAfterRestore == 0 ? null : (firstOkAfterRestore - restored) / 1_000_000;
      m.put("firstOkAfterRestoreMillis", firstOk);
      m.put("steadyAfterRestoreMillis", steadyAfterRestoreMillis());
      // Unknown (null) when the level ended before the bound had passed without an OK.
      boolean observed = firstOk != null || (restored != 0 && lastEnd >= restored + RECOVERY_BOUND.toNanos());
      m.put("recovered", !restoring || !observed ? null : firstOk != null && firstOk <= RECOVERY_BOUND.toMillis());
      m.put("levelEndSeconds", lastEnd == 0 ? null : seconds(lastEnd));
      return m;
    }

    /** From the restart to the end of the first full second with {@link #STEADY_SHARE} of the pre-fault mean. */
    Long steadyAfterRestoreMillis() {
      long back = restored;
      int before = (int) ((faultStart - start) / 1_000_000_000L);
      if (back == 0 || before < 2) {
        return null;
      }
      double mean = 0;
      for (int s = 1; s < before; s++) {
        mean += count(s);
      }
      mean /= before - 1; // the first second is left out: users were starting
      int from = (int) Math.ceil((back - start) / 1e9);
      int last = okPerSecond.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
      for (int s = from; s < last; s++) { // the last second is partial
        if (count(s) >= STEADY_SHARE * mean) {
          return (start + (s + 1) * 1_000_000_000L - back) / 1_000_000;
        }
      }
      return null;
    }

    long count(int second) {
      LongAdder a = okPerSecond.get(second);
      return a == null ? 0 : a.sum();
    }
  }
}
