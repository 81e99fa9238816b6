package protocols.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the machine's CPU went during a run, sampled once a second: the whole machine from
 * {@code /proc/stat}, this JVM (the injector) and its child processes (the embedded servers) from
 * {@link ProcessHandle} CPU times. What is busy but neither of them is "the rest": other work on the
 * machine, which makes a level's figures untrustworthy. Linux only; elsewhere it records nothing.
 */
public final class CpuSampler implements AutoCloseable {
  static final Duration PERIOD = Duration.ofSeconds(1);
  private static final Path PROC_STAT = Path.of("/proc/stat");
  /**
   * Set by {@code -Dinjectors=N} on each injector it starts: the coordinating JVM, whose server and
   * other injectors count with the servers here, not as other work on the machine.
   */
  public static final String PEERS_OF = "rpc.injectorsParent";
  private static final Optional<ProcessHandle> PEERS = Optional.ofNullable(System.getProperty(PEERS_OF))
      .flatMap(pid -> {
        try {
          return ProcessHandle.of(Long.parseLong(pid));
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      });

  /**
   * One sample: cumulative counters at {@code nanos} (System.nanoTime). {@code serverNanos} holds the
   * live servers by process id; {@code reapedNanos} the CPU of those that have ended and been waited
   * for (a server killed by a fault), from the kernel's count of a parent's waited-for children.
   */
  record Sample(long nanos, long machineTotal, long machineIdle, long machineSteal, long injectorNanos,
                Map<Long, Long> serverNanos, long reapedNanos) {
    Sample(long nanos, long machineTotal, long machineIdle, long machineSteal, long injectorNanos, long serverNanos) {
      this(nanos, machineTotal, machineIdle, machineSteal, injectorNanos, Map.of(0L, serverNanos), 0);
    }
  }

  /** Shares of the machine's capacity (cores × time) over an interval; they add up to 1 with {@code idle}. */
  public record Shares(double injector, double servers, double rest, double steal, double idle, double seconds,
                       int cores, double otherServers) {
    /** Every server the lab started counted as the level's own. */
    public Shares(double injector, double servers, double rest, double steal, double idle, double seconds, int cores) {
      this(injector, servers, rest, steal, idle, seconds, cores, 0);
    }

    /** The injector's CPU in cores (its share times the machine's cores). */
    public double injectorCores() {
      return injector * cores;
    }

    /** The embedded servers' CPU in cores. */
    public double serverCores() {
      return servers * cores;
    }
  }

  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  /** Processes of the test the run did not start ({@code -DserverPids}): counted, with theirs, as servers. */
  private final Set<Long> declared;

  private CpuSampler(Set<Long> declared) {
    this.declared = Set.copyOf(declared);
    thread = new Thread(this::loop, "cpu-sampler");
    thread.setDaemon(true);
  }

  /**
   * Why the CPU shares cannot be measured here, if they cannot: no /proc/stat (not Linux), or a JVM
   * that may use fewer cores than /proc/stat counts (a container's CPU limit, a cpuset, or
   * -XX:ActiveProcessorCount), whose machine-wide busy time cannot be split into its shares.
   */
  public static Optional<String> notMeasurable() {
    return notMeasurable(false);
  }

  /**
   * As {@link #notMeasurable()}; {@code pinnedByLab}: this JVM's fewer cores are the lab's own pinning
   * (-Dcpus), every other core holding the lab's servers, so the machine's busy time still splits.
   */
  public static Optional<String> notMeasurable(boolean pinnedByLab) {
    int machine = machineCores();
    return notMeasurable(machine, pinnedByLab ? machine : Runtime.getRuntime().availableProcessors());
  }

  static Optional<String> notMeasurable(int machine, int jvm) {
    if (machine == 0) {
      return Optional.of("no /proc/stat to read the machine's CPU time from (Linux only)");
    }
    if (jvm < machine) {
      return Optional.of("this JVM may use " + jvm + " of the machine's " + machine + " cores (a container's CPU limit,"
          + " a cpuset or -XX:ActiveProcessorCount), so the machine-wide busy time of /proc/stat cannot be split into"
          + " the run's shares");
    }
    return Optional.empty();
  }

  /** The machine's cores, as /proc/stat lists them ({@code cpu0}, {@code cpu1}, ...); 0 where it cannot be read. */
  public static int machineCores() {
    try {
      return (int) Files.readAllLines(PROC_STAT).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Starts sampling now; empty where the shares cannot be measured ({@link #notMeasurable}). */
  public static Optional<CpuSampler> start() {
    return start(Set.of());
  }

  /**
   * As {@link #start()}, the processes {@code declared} (and their descendants) counted as servers: a
   * provider of the user's own on this machine, whose CPU would otherwise read as other work.
   */
  public static Optional<CpuSampler> start(Set<Long> declared) {
    return start(declared, false);
  }

  /** As {@link #start(Set)}, on a JVM the lab pinned itself ({@link #notMeasurable(boolean)}). */
  public static Optional<CpuSampler> start(Set<Long> declared, boolean pinnedByLab) {
    if (notMeasurable(pinnedByLab).isPresent() || read(declared).isEmpty()) {
      return Optional.empty();
    }
    CpuSampler s = new CpuSampler(declared);
    s.samples.add(read(declared).get());
    s.thread.start();
    return Optional.of(s);
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(PERIOD.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      read(declared).ifPresent(samples::add);
    }
  }

  /** Takes a last sample and stops. */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    read(declared).ifPresent(samples::add);
  }

  /**
   * The shares between {@code fromNanos} and {@code toNanos}, from the samples that lie inside it
   * (or, for a span shorter than two samples, the nearest ones around it); empty with too few samples.
   */
  public Optional<Shares> between(long fromNanos, long toNanos) {
    return between(fromNanos, toNanos, null);
  }

  /**
   * As above, with {@code servers} only the processes {@code own} accepts (a level's own server, its
   * registry) and the lab's other processes apart, as {@code otherServers}: an idle server's GC, JIT and
   * heartbeats are not charged to another framework's calls. Null {@code own}: every server is the level's.
   */
  public Optional<Shares> between(long fromNanos, long toNanos, java.util.function.LongPredicate own) {
    List<Sample> all = new ArrayList<>(samples);
    all.add(read(declared).orElse(null));
    all.removeIf(s -> s == null);
    Sample a = null;
    Sample b = null;
    for (Sample s : all) {
      if (s.nanos >= fromNanos && s.nanos <= toNanos) {
        if (a == null) {
          a = s;
        }
        b = s;
      }
    }
    if (a == null || b == null || b.nanos - a.nanos < PERIOD.toNanos() / 2) {
      a = null;
      b = null;
      for (Sample s : all) {
        if (s.nanos <= fromNanos) {
          a = s;
        }
        if (s.nanos >= toNanos && b == null) {
          b = s;
        }
      }
    }
    if (a == null || b == null || b.machineTotal <= a.machineTotal) {
      return Optional.empty();
    }
    return Optional.of(shares(a, b, MACHINE_CORES, own));
  }

  private static final int MACHINE_CORES = Math.max(1, machineCores());

  static Shares shares(Sample a, Sample b, int cores) {
    return shares(a, b, cores, null);
  }

  static Shares shares(Sample a, Sample b, int cores, java.util.function.LongPredicate own) {
    double total = b.machineTotal - a.machineTotal;
    double idle = (b.machineIdle - a.machineIdle) / total;
    double steal = (b.machineSteal - a.machineSteal) / total;
    double capacityNanos = (double) (b.nanos - a.nanos) * cores;
    double injector = clamp((b.injectorNanos - a.injectorNanos) / capacityNanos);
    // Per process: a server restarted by a fault is a new process, whose CPU counts from zero.
    // A server that ended between the samples (killed) is no longer listed in b: its CPU since a is in
    // the reaped count instead, so it is not taken for other work (and is charged as the level's own:
    // faults act on the level's server).
    long ownDelta = b.reapedNanos - a.reapedNanos;
    long otherDelta = 0;
    for (Map.Entry<Long, Long> e : b.serverNanos.entrySet()) {
      long d = e.getValue() - a.serverNanos.getOrDefault(e.getKey(), 0L);
      if (own == null || own.test(e.getKey())) {
        ownDelta += d;
      } else {
        otherDelta += d;
      }
    }
    for (Map.Entry<Long, Long> e : a.serverNanos.entrySet()) {
      if (!b.serverNanos.containsKey(e.getKey())) {
        ownDelta -= e.getValue(); // its whole life is in the reaped count; only what came after a is this interval's
      }
    }
    double servers = clamp(ownDelta / capacityNanos);
    double others = clamp(otherDelta / capacityNanos);
    double busy = 1 - idle;
    double rest = clamp(busy - injector - servers - others);
    return new Shares(injector, servers, rest, clamp(steal), clamp(idle), (b.nanos - a.nanos) / 1e9, cores, others);
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(1, v));
  }

  static Optional<Sample> read() {
    return read(Set.of());
  }

  static Optional<Sample> read(Set<Long> declared) {
    try {
      long nanos = System.nanoTime();
      String cpu = Files.readAllLines(PROC_STAT).stream().filter(l -> l.startsWith("cpu ")).findFirst().orElse(null);
      if (cpu == null) {
        return Optional.empty();
      }
      String[] f = cpu.trim().split("\\s+");
      // user nice system idle iowait irq softirq steal [guest guest_nice: already inside user and nice]
      long total = 0;
      for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
      long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
      long injector = cpuNanos(ProcessHandle.current());
      Map<Long, Long> servers = new HashMap<>();
      long reaped = reapedChildrenNanos(ProcessHandle.current().pid());
      ProcessHandle.current().descendants().forEach(p -> servers.put(p.pid(), cpuNanos(p)));
      if (PEERS.isPresent()) {
        ProcessHandle parent = PEERS.get();
        servers.put(parent.pid(), cpuNanos(parent));
        parent.descendants().filter(p -> p.pid() != ProcessHandle.current().pid())
            .forEach(p -> servers.putIfAbsent(p.pid(), cpuNanos(p)));
        reaped += reapedChildrenNanos(parent.pid());
      }
      for (long pid : declared) {
        ProcessHandle.of(pid).ifPresent(p -> {
          servers.putIfAbsent(pid, cpuNanos(p));
          p.descendants().forEach(d -> servers.putIfAbsent(d.pid(), cpuNanos(d)));
        });
      }
      return Optional.of(new Sample(nanos, total, idle, steal, injector, servers, reaped));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every Linux the JDK runs on. */
  private static final long TICK_NANOS = 10_000_000L;

  /**
   * The CPU time of {@code pid}'s children that have ended and been waited for (cutime + cstime of
   * /proc/pid/stat): the JDK waits for every process it started, so a killed server lands here.
   */
  static long reapedChildrenNanos(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // after "pid (comm) ": state is field 3; cutime and cstime are fields 16 and 17
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * TICK_NANOS;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long cpuNanos(ProcessHandle p) {
    return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
