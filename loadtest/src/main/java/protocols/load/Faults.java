package protocols.load;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Faults injected into the embedded server during each level ({@code -Dfaults=kill@10s,restart@13s}),
 * and what they did: when the server went away and came back, the first OK after it came back, when
 * throughput was steady again, and the KOs meanwhile. Calls that start between the first fault and
 * {@link #RECOVERY_BOUND} after the server is back are logged under the level's name plus
 * {@link protocols.stats.Level#DURING_FAULT}, so the level's own KO assertion judges only the time outside the fault: a framework
 * that recovers within the bound passes, one that does not fails.
 */
public final class Faults {
  /** How long after the server is back calls still count as the fault's: the recovery a client is allowed. */
  public static final Duration RECOVERY_BOUND = Duration.ofSeconds(5);
  /**
   * The fault window opens this long before the first fault: a call that started earlier and was still
   * in flight when the server stalled would otherwise be a timeout in the level's own row. A call that
   * had already run half a second when the fault came is a stalled machine's, not the fault's.
   */
  public static final Duration IN_FLIGHT_GUARD = Duration.ofMillis(500);
  /** Throughput is steady again at the first full second after the restart with this share of the pre-fault mean. */
  static final double STEADY_SHARE = 0.9;
  private static final Pattern STEP = Pattern.compile("(kill|restart|stop|cont)@(\\d+)(ms|s)(?::(?:provider=(\\d+)|(registry)))?");

  /** What faults act on: a server that can be killed, restarted, stopped and continued. */
  public interface FaultTarget {
    void kill();

    void restart();

    /** SIGSTOP or SIGCONT: {@code STOP} or {@code CONT}. */
    void signal(String name);
  }

  /**
   * What the servers report of themselves, for the time a provider took to get calls again; 0 when
   * unknown (a server that does not report).
   */
  public interface Reporting {
    /** When the server's current life reported its first call served (System.nanoTime), or 0. */
    long firstServedNanos();
  }

  /**
   * What a step acts on: every provider (no suffix; the one server of most runs), provider {@code n}
   * ({@code :provider=n}, from 1), or the registry ({@code :registry}).
   */
  public record On(int provider, boolean registry) {
    public static final On PROVIDERS = new On(0, false);
    public static final On REGISTRY = new On(0, true);

    /** How a step's target is shown: empty for every provider, "provider 2", "registry". */
    public String label() {
      return registry ? "registry" : provider == 0 ? "" : "provider " + provider;
    }
  }

  /** What the steps act on, by what each names. */
  @FunctionalInterface
  public interface Targets {
    /** The target of {@code on}; an {@link IllegalArgumentException} if there is none such. */
    FaultTarget of(On on);
  }

  /** What a step does: SIGKILL, a new process, SIGSTOP (a stall), SIGCONT; named in -Dfaults as kill|restart|stop|cont. */
  public enum Action {
    KILL, RESTART, STOP, CONT;

    /** As -Dfaults and the faults table write it. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether it brings the server back. */
    boolean restores() {
      return this == RESTART || this == CONT;
    }

    static Action of(String label) {
      return valueOf(label.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** One fault: what to do, to what, and when after the level's start. */
  public record Step(Action action, Duration at, On on) {
    public Step(Action action, Duration at) {
      this(action, at, On.PROVIDERS);
    }

    boolean restores() {
      return action.restores();
    }

    /** The step as the faults table shows it: "kill", "restart provider 2". */
    public String label() {
      return on.label().isEmpty() ? action.label() : action.label() + " " + on.label();
    }
  }

  private final List<Step> steps;
  private final Targets targets;
  private final boolean apart;
  private final FaultWindows windows;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fault-injector");
    t.setDaemon(true);
    return t;
  });
  /** The steps scheduled so far, so that stopping the run cancels those still to come. */
  private final List<ScheduledFuture<?>> scheduled = new CopyOnWriteArrayList<>();
  private volatile boolean cancelled;

  /**
   * @param server what every step acts on
   * @param apart whether a fault window's calls get a row of their own ({@code -DfaultsInLevel=false})
   * @param windows the run's fault windows, which the run's calls are named and judged by
   */
  public Faults(List<Step> steps, FaultTarget server, boolean apart, FaultWindows windows) {
    this(steps, on -> server, apart, windows);
  }

  /** @param targets what each step acts on */
  public Faults(List<Step> steps, Targets targets, boolean apart, FaultWindows windows) {
    this.steps = List.copyOf(steps);
    this.targets = targets;
    this.apart = apart;
    this.windows = windows;
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
            + " like 10s or 500ms, each on every provider or on :provider=N or :registry, e.g. kill@10s,restart@13s"
            + " or kill@5s:provider=1; got '" + spec + "'");
      }
      long n = Long.parseLong(m.group(2));
      On on = m.group(5) != null ? On.REGISTRY : m.group(4) != null ? new On(providerNumber(m.group(4), spec), false)
          : On.PROVIDERS;
      Action action = Action.of(m.group(1));
      if (on.registry() && (action == Action.STOP || action == Action.CONT)) {
        throw new IllegalArgumentException("-Dfaults: the registry is killed and restarted, not stopped; got '" + spec
            + "'");
      }
      out.add(new Step(action, m.group(3).equals("s") ? Duration.ofSeconds(n) : Duration.ofMillis(n), on));
    }
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).at().compareTo(out.get(i - 1).at()) < 0) {
        throw new IllegalArgumentException("-Dfaults steps must be in time order; got '" + spec + "'");
      }
    }
    return List.copyOf(out);
  }

  private static int providerNumber(String n, String spec) {
    try {
      int p = Integer.parseInt(n);
      if (p >= 1) {
        return p;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("-Dfaults: providers are numbered from 1; got '" + spec + "'");
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

  /**
   * Whether a closed level's users go on calling past its -Dduration: until its server is back from a
   * restoring fault and the recovery bound after it has passed, so that every level shows its recovery.
   */
  public boolean recoveryPending(String request) {
    return windows.recoveryPending(request, System.nanoTime());
  }

  /** Starts the faults' clock of the level {@code request} at {@code startNanos} (now or soon). */
  public void startAt(String request, long startNanos) {
    windows.start(request, () -> start(request, startNanos));
  }

  private FaultLevel start(String request, long startNanos) {
    FaultLevel level = new FaultLevel(request, startNanos, steps, apart);
    long delay = Math.max(0, startNanos - System.nanoTime());
    for (Step step : steps) {
      if (!cancelled) {
        scheduled.add(timer.schedule(() -> level.apply(step, targets), delay + step.at().toNanos(),
            TimeUnit.NANOSECONDS));
      }
    }
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
    timer.shutdown();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS); // a step already running ends first
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
