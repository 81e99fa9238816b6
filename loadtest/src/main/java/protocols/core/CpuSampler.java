package protocols.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  /** One sample: cumulative counters at {@code nanos} (System.nanoTime). */
  record Sample(long nanos, long machineTotal, long machineIdle, long machineSteal, long injectorNanos,
                Map<Long, Long> serverNanos) {
    Sample(long nanos, long machineTotal, long machineIdle, long machineSteal, long injectorNanos, long serverNanos) {
      this(nanos, machineTotal, machineIdle, machineSteal, injectorNanos, Map.of(0L, serverNanos));
    }
  }

  /** Shares of the machine's capacity (cores × time) over an interval; they add up to 1 with {@code idle}. */
  public record Shares(double injector, double servers, double rest, double steal, double idle, double seconds) {
  }

  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  private CpuSampler() {
    thread = new Thread(this::loop, "cpu-sampler");
    thread.setDaemon(true);
  }

  /** Starts sampling now; empty where /proc/stat cannot be read. */
  public static Optional<CpuSampler> start() {
    if (read().isEmpty()) {
      return Optional.empty();
    }
    CpuSampler s = new CpuSampler();
    s.samples.add(read().get());
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
      read().ifPresent(samples::add);
    }
  }

  /** Takes a last sample and stops. */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    read().ifPresent(samples::add);
  }

  /**
   * The shares between {@code fromNanos} and {@code toNanos}, from the samples that lie inside it
   * (or, for a span shorter than two samples, the nearest ones around it); empty with too few samples.
   */
  public Optional<Shares> between(long fromNanos, long toNanos) {
    List<Sample> all = new ArrayList<>(samples);
    all.add(read().orElse(null));
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
    return Optional.of(shares(a, b, Runtime.getRuntime().availableProcessors()));
  }

  static Shares shares(Sample a, Sample b, int cores) {
    double total = b.machineTotal - a.machineTotal;
    double idle = (b.machineIdle - a.machineIdle) / total;
    double steal = (b.machineSteal - a.machineSteal) / total;
    double capacityNanos = (double) (b.nanos - a.nanos) * cores;
    double injector = clamp((b.injectorNanos - a.injectorNanos) / capacityNanos);
    // Per process: a server restarted by a fault is a new process, whose CPU counts from zero.
    long serverDelta = 0;
    for (Map.Entry<Long, Long> e : b.serverNanos.entrySet()) {
      serverDelta += e.getValue() - a.serverNanos.getOrDefault(e.getKey(), 0L);
    }
    double servers = clamp(serverDelta / capacityNanos);
    double busy = 1 - idle;
    double rest = clamp(busy - injector - servers);
    return new Shares(injector, servers, rest, clamp(steal), clamp(idle), (b.nanos - a.nanos) / 1e9);
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(1, v));
  }

  private static Optional<Sample> read() {
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
      ProcessHandle.current().descendants().forEach(p -> servers.put(p.pid(), cpuNanos(p)));
      PEERS.ifPresent(parent -> {
        servers.put(parent.pid(), cpuNanos(parent));
        parent.descendants().filter(p -> p.pid() != ProcessHandle.current().pid())
            .forEach(p -> servers.putIfAbsent(p.pid(), cpuNanos(p)));
      });
      return Optional.of(new Sample(nanos, total, idle, steal, injector, servers));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static long cpuNanos(ProcessHandle p) {
    return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
