package protocols.lab;

import protocols.rpc.StreamResult;
import protocols.stats.StreamRecorder;

import io.gatling.core.CoreComponents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import protocols.live.LiveMetrics;
import protocols.load.FailureWatch;
import protocols.load.FaultWindows;
import protocols.load.SummaryListener;
import protocols.load.Warmup;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcRun;
import protocols.rpc.RpcSettings;
import protocols.rpc.RunObserver;
import protocols.rpc.TempFolders;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.stats.RunInfo;

/**
 * One run of the lab, as one object: its µs recorder, its fault windows, its failure watch, its
 * warm-ups, the listeners its summary is written for, and its exit status. A simulation makes one,
 * hands it to what it builds (levels, faults, the shootout's comparison) and gives Gatling its
 * {@link #protocol()}; Gatling's components of the run then report every call to it.
 *
 * <p>How a run ends, in this order: Gatling's users finish; the simulation's {@code after()} cancels
 * the faults still to come and stops the embedded servers ({@link EchoRun#stop}); Gatling ends its
 * actor system: the frameworks' clients close and this run's {@link #end} writes {@code rpc-summary.json},
 * {@code rpc-report.html}, the console table and each listener's files, keeping their verdicts;
 * Gatling writes its own report and exits; the last shutdown hook names the µs page and, if a verdict
 * failed or something broke, ends the JVM with {@link ExitStatus}'s status. Interrupted (SIGTERM,
 * Ctrl-C), the shutdown hooks do the same at once: the servers and the plain driver are stopped, the
 * summary is written marked interrupted, then the status is set.
 */
public final class LabRun implements RunObserver {
  private final LoadParams params;
  private final LatencyRecorder recorder = new LatencyRecorder();
  private final StreamRecorder streams = new StreamRecorder();
  private final FaultWindows faults = new FaultWindows();
  private final FailureWatch watch = new FailureWatch(faults);
  private final List<Warmup> warmups = new CopyOnWriteArrayList<>();
  private final List<Warmup> settles = new CopyOnWriteArrayList<>();
  private final List<SummaryListener> listeners = new CopyOnWriteArrayList<>();
  private final Map<RpcProtocol<?, ?>, Map<String, Object>> protocolsSeen = new IdentityHashMap<>();
  /** Each protocol's table, by where its client calls (which servers, or which registry). */
  private final List<Map.Entry<Endpoints, Map<String, Object>>> protocols = new CopyOnWriteArrayList<>();
  /** Per servers called, how their client started: its first call's time and, for providers the lab started, their counts. */
  private final Map<Endpoints, Started> started = new ConcurrentHashMap<>();
  /** Per echo (the levels' framework name), the server processes the lab started for it. */
  private final ServerProcesses servers = new ServerProcesses();

  /** How a framework's client started: its first OK call after (ms), and what its providers served, or null. */
  /** @param server what the embedded server says it runs (its knobs' values), empty when it says nothing */
  private record Started(long firstCallMillis, Supplier<List<Map<String, Object>>> served, TlsMode tls,
                         Optional<String> server) {
  }
  /** The run's throwaway CA and certificates, made when a first framework speaks TLS; else null. */
  private TlsSettings.Material tlsMaterial;
  private final ExitStatus exit = new ExitStatus();
  private final RpcRun protocol = RpcRun.observedBy(this::attach);
  private final LiveSettings liveSettings;
  private final Optional<CpuPinning> pinning;
  private int serversWithMetrics;
  private RunReport report;
  /** The figures shown while the run goes (-Dmetrics.port, -Dlive), from its first action on; else null. */
  private volatile LiveMetrics live;

  /** A run with the -D parameters {@code params} (what its summary says it ran with). */
  public LabRun(LoadParams params) {
    this.params = params;
    this.liveSettings = LiveSettings.of(params);
    this.pinning = CpuPinning.of(params);
    pinning.ifPresent(CpuPinning::pinThisJvm); // before any server or client thread: both sides start pinned
  }

  /** -Dcpus: the injector's and the servers' CPUs, if the run pins them. */
  Optional<CpuPinning> pinning() {
    return pinning;
  }

  /**
   * The run as Gatling's protocol, beside a framework's on each population ({@link EchoLevels} sets
   * both), so every call of the run reaches this object.
   */
  public RpcRun protocol() {
    return protocol;
  }

  /**
   * Gatling builds the run's actions: the run's folder is found now (Gatling holds its simulation.log
   * open), the CPU sampling starts, and an interrupted run will still write its reports.
   */
  synchronized RunObserver attach(CoreComponents core) {
    if (report == null) {
      Path folder = RunFolder.ofCurrentRun().orElseThrow(() -> ExitStatus.exitNow("cannot find this run's folder"
          + " (neither the simulation.log Gatling holds open, in /proc, nor a new run folder under Gatling's -rf):"
          + " the µs report would have nowhere to go", new IllegalStateException()));
      report = RunReport.start(this, folder);
      report.profileServers(servers.providers());
      keepTlsMaterial(folder);
      if (liveSettings.any()) {
        RunReport started = report;
        try {
          live = new LiveMetrics(liveSettings.host(), liveSettings.port(), liveSettings.consoleSeconds(), System.out,
              recorder::level, this::soleFramework, started::recentCpu);
        } catch (IllegalArgumentException e) {
          throw ExitStatus.exitNow(e.getMessage(), e);
        }
        if (live.port() > 0) {
          System.out.println("metrics: http://" + liveSettings.host() + ":" + live.port() + "/metrics");
        }
      }
    }
    return this;
  }

  /** The run's throwaway CA and certificates, made on first use in a temporary folder, copied into the run's (tls/). */
  synchronized TlsSettings.Material tlsMaterial() {
    if (tlsMaterial == null) {
      tlsMaterial = TlsSettings.Material.create();
    }
    return tlsMaterial;
  }

  /** The certificates the run's TLS servers and clients used, under {@code <run>/tls/}, for a rerun against them. */
  private synchronized void keepTlsMaterial(Path runFolder) {
    if (tlsMaterial == null) {
      return;
    }
    Path to = runFolder.resolve("tls");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(tlsMaterial.folder())) {
      java.nio.file.Files.createDirectories(to);
      for (Path f : files.toList()) {
        java.nio.file.Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (java.io.IOException e) {
      System.err.println("could not copy the run's TLS certificates into " + to + ": " + e.getMessage());
    }
  }

  /** The port of the next embedded server's metrics (-Dmetrics.serverPort, then each next one); 0 for none. */
  synchronized int nextServerMetricsPort() {
    return liveSettings.serverPort() == 0 ? 0 : liveSettings.serverPort() + serversWithMetrics++;
  }

  /** The framework of a run of one, for request names that do not say theirs; else empty. */
  private String soleFramework() {
    List<String> names = protocols.stream().map(p -> String.valueOf(p.getValue().get("framework"))).distinct().toList();
    return names.size() == 1 ? names.get(0) : "";
  }

  /** Names a level: its request name, and what it is, kept with its figures. */
  public String describe(Level level) {
    String name = level.name(); // one instance for the recorder's key and the calls' name
    recorder.describe(name, level);
    return name;
  }

  public FaultWindows faults() {
    return faults;
  }

  public FailureWatch watch() {
    return watch;
  }

  public LatencyRecorder recorder() {
    return recorder;
  }

  public StreamRecorder streams() {
    return streams;
  }

  public ExitStatus exit() {
    return exit;
  }

  LoadParams params() {
    return params;
  }

  /** Keeps {@code warmup}, to say in the summary what it did. */
  public Warmup add(Warmup warmup) {
    warmups.add(warmup);
    return warmup;
  }

  /** Keeps a level's {@code settle} (or the warm-up's rehearsal of a level start), to say what it did. */
  public Warmup addSettle(Warmup settle) {
    settles.add(settle);
    return settle;
  }

  /** {@code listener} is told when the summary is written; its verdict is the run's. */
  public void onSummaryWritten(SummaryListener listener) {
    listeners.add(listener);
  }

  List<SummaryListener> listeners() {
    return listeners;
  }

  List<RunInfo.WarmupOutcome> warmupOutcomes() {
    return warmups.stream().map(Warmup::outcome).flatMap(Optional::stream).toList();
  }

  List<RunInfo.WarmupOutcome> settleOutcomes() {
    return settles.stream().map(Warmup::outcome).flatMap(Optional::stream).toList();
  }

  /**
   * The client of {@code endpoints} started: a fresh client's first OK echo (the probe: the client's
   * own start, discovery and connection included) took {@code firstCallMillis}; {@code served}, if
   * not null, tells at the end of the run what each of its providers served.
   */
  void started(Endpoints endpoints, long firstCallMillis, Supplier<List<Map<String, Object>>> served, TlsMode tls,
               Optional<String> server) {
    started.put(endpoints, new Started(firstCallMillis, served, tls, server));
  }

  /** The server processes (providers, registry) the lab started for the levels named {@code echo}. */
  void ownsServers(String echo, Supplier<Set<Long>> pids, Supplier<Set<Long>> providers) {
    servers.add(echo, pids, providers);
    RunReport r;
    synchronized (this) {
      r = report;
    }
    if (r != null) {
      r.profileServers(servers.providers());
    }
  }

  ServerProcesses servers() {
    return servers;
  }

  /** The protocol tables, each with its framework's first call and what its providers served, as they counted it. */
  List<Map<String, Object>> protocols() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<Endpoints, Map<String, Object>> e : protocols) {
      Map<String, Object> p = e.getValue();
      Started s = started.get(e.getKey());
      if (s == null) {
        out.add(p);
        continue;
      }
      Map<String, Object> with = new LinkedHashMap<>(p);
      s.server().ifPresent(server -> with.put("server", server));
      with.put("firstCallMillis", s.firstCallMillis());
      if (s.tls().on()) {
        with.put("tlsMode", s.tls() == TlsMode.MUTUAL ? "mutual: the server requires a client certificate signed by the"
            + " run's CA" : "server authentication: the client checks the server's certificate");
      }
      if (s.served() != null) {
        with.put(RunInfo.SERVED_BY_PROVIDER, s.served().get());
      }
      out.add(with);
    }
    return out;
  }


  // ----------------------------------------------------------------- what the plugin tells

  @Override
  public String nameFor(String request, long startNanos) {
    Level level = faults.apart(request, startNanos) ? recorder.level(request) : null;
    return level == null ? request : describe(level.inFaultWindow());
  }

  @Override
  public void started(String name, long startNanos) {
    recorder.started(name, startNanos);
    LiveMetrics l = live;
    if (l != null) {
      l.started(name);
    }
  }

  @Override
  public void completed(String request, String name, long intendedNanos, long startNanos, long endNanos,
                        String failure, boolean open) {
    if (open) {
      recorder.recordOpen(name, intendedNanos, startNanos, endNanos, failure);
    } else {
      recorder.record(name, startNanos, endNanos, failure);
    }
    watch.completed(request, name, startNanos, endNanos, failure == null);
    LiveMetrics l = live;
    if (l != null) {
      l.completed(name, intendedNanos, startNanos, endNanos, failure, open);
    }
  }

  @Override
  public void streamed(String name, long startNanos, long endNanos, StreamResult stream, boolean ok) {
    streams.record(name, startNanos, endNanos, stream, ok);
  }

  @Override
  public void openLevel(String name, double rate, int maxInFlight, long startNanos) {
    recorder.declareOpen(name, rate, maxInFlight, startNanos);
    LiveMetrics l = live;
    if (l != null) {
      l.openLevel(name, rate);
    }
  }

  @Override
  public void dropped(String name, long dueNanos) {
    recorder.recordDropped(name, dueNanos);
    LiveMetrics l = live;
    if (l != null) {
      l.dropped(name);
    }
  }

  @Override
  public void unsent(String name, long calls, String reason) {
    recorder.recordUnsent(name, calls, reason);
  }

  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type.isInstance(recorder) ? Optional.of(type.cast(recorder)) : RunObserver.super.unwrap(type);
  }

  @Override
  public void protocolUsed(RpcProtocol<?, ?> protocol) {
    Map<String, Object> p = ProtocolTable.of(protocol);
    synchronized (protocolsSeen) {
      if (protocolsSeen.putIfAbsent(protocol, p) != null) {
        return;
      }
    }
    RpcSettings s = protocol.settings();
    protocols.add(Map.entry(new Endpoints(s.targets(), s.registry(), s.tls()), p));
  }

  @Override
  public void providersFound(RpcProtocol<?, ?> protocol, List<String> found) {
    synchronized (protocolsSeen) { // the client's list so far: each request's preparation may add to it
      if (!found.isEmpty() && protocolsSeen.containsKey(protocol)) {
        protocolsSeen.get(protocol).put("providersFound", String.join("; ", found));
      }
    }
  }

  /** The lab's runs start with a probe, so a client that cannot start now is one line and exit 1. */
  @Override
  public RuntimeException failedToStart(RuntimeException error) {
    return ExitStatus.exitNow(error.getMessage(), error);
  }

  @Override
  public synchronized void end() {
    if (report != null) {
      report.end();
    }
    if (tlsMaterial != null) {
      TempFolders.delete(tlsMaterial.folder()); // its copy is in the run's tls/ (keys too)
    }
    LiveMetrics l = live;
    if (l != null) {
      if (liveSettings.lingerSeconds() > 0) {
        // The last calls reach Prometheus only if it scrapes once more: keep serving a little while.
        System.out.println("metrics: serving the run's final figures for " + liveSettings.lingerSeconds()
            + " s more (-Dmetrics.linger)");
        try {
          Thread.sleep(liveSettings.lingerSeconds() * 1_000L);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      l.close();
    }
  }
}
