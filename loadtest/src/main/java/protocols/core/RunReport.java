package protocols.core;

import io.gatling.core.CoreComponents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The run's {@code rpc-summary.json}: one latency recorder shared by every RPC protocol of a run,
 * written when the last of them closes, or by a shutdown hook if the run is interrupted first.
 */
public final class RunReport {
  private static final Map<CoreComponents, RunReport> RUNS = new IdentityHashMap<>();
  private static final List<SummaryListener> LISTENERS = new CopyOnWriteArrayList<>();

  /** Told each time this JVM's run writes its summary (e.g. the shootout's comparison report). */
  public interface SummaryListener {
    void written(Path folder, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis, boolean interrupted)
        throws IOException;

    /** What it writes, for the line that says it could not: e.g. "the comparison report". */
    default String what() {
      return getClass().getSimpleName();
    }
  }

  /**
   * Makes the run exit with status 2 once its reports are written, printing {@code why} last: for a
   * verdict Gatling's own assertions cannot give (e.g. the nightly gates, computed from the summary).
   */
  public static void failOnExit(String why) {
    ExitStatus.fail(why);
  }

  /** Registers {@code listener} for the run in this JVM. */
  public static void onSummaryWritten(SummaryListener listener) {
    LISTENERS.add(listener);
  }

  private final CoreComponents core;
  private final LatencyRecorder recorder = new LatencyRecorder();
  private final Optional<CpuSampler> cpu;
  private final String cpuNotSampled;
  private final Path folder;
  private final List<Map<String, Object>> protocols = new ArrayList<>();
  private final long startedAt = System.currentTimeMillis();
  private final Thread shutdownHook;
  private int attached;

  private RunReport(CoreComponents core, Path folder, boolean writeOnExit) {
    this.core = core;
    this.folder = folder;
    this.cpu = folder == null ? Optional.empty() : CpuSampler.start();
    this.cpuNotSampled = CpuSampler.notMeasurable().orElse("the CPU was not sampled");
    this.shutdownHook = writeOnExit ? new Thread(() -> write(true), "rpc-summary-on-exit") : null;
    if (shutdownHook != null) {
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }
  }

  private static RunReport forRun(CoreComponents core) {
    // Found now, while Gatling holds simulation.log open; Gatling does not expose its results folder.
    return new RunReport(core, RunFolder.ofCurrentRun().orElseThrow(() -> new IllegalStateException("cannot find"
        + " this run's folder (neither the simulation.log Gatling holds open, in /proc, nor a new run folder under"
        + " Gatling's -rf): the µs report would have nowhere to go")), true);
  }

  /** A report that records but writes nothing: for tests of the action alone. */
  static RunReport detached() {
    return new RunReport(null, null, false);
  }

  static synchronized RunReport attach(CoreComponents core, RpcProtocol<?, ?> protocol) {
    RunReport report = RUNS.computeIfAbsent(core, RunReport::forRun);
    report.attached++;
    RpcSettings s = protocol.settings();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("framework", protocol.framework());
    p.put("target", s.host() + ":" + s.port());
    p.put("mode", s.mode().label());
    p.put("timeoutMillis", s.timeoutMillis());
    if (s.mode() == InvocationMode.SYNC) {
      p.put("syncThreads", s.syncThreads());
    }
    p.put("connections", s.connections() == 0 ? "framework default" : s.connections());
    p.put("maxMessageBytes", protocol.maxMessageBytes());
    p.putAll(protocol.describe());
    report.protocols.add(p);
    return report;
  }

  LatencyRecorder recorder() {
    return recorder;
  }

  void release() {
    if (folder == null) {
      return;
    }
    synchronized (RunReport.class) {
      if (--attached > 0) {
        return;
      }
      RUNS.remove(core);
    }
    try {
      if (shutdownHook != null) {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      }
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or about to: it writes the same figures
    }
    write(false);
  }

  private synchronized void write(boolean interrupted) {
    cpu.ifPresent(CpuSampler::close);
    List<LatencyRecorder.RequestStats> requests = recorder.snapshot();
    List<Map<String, Object>> warmups = Warmup.outcomes();
    List<Map<String, Object>> faults = Faults.outcomes();
    RunAnalysis analysis = RunAnalysis.of(requests, cpu, warmups, faults).withCpuNotSampledBecause(cpuNotSampled);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("protocols", protocols);
    run.put("interrupted", interrupted);
    identify(run);
    run.put("warmups", warmups);
    if (!faults.isEmpty()) {
      run.put("faults", faults);
    }
    try {
      Path file = LatencyRecorder.writeSummaryTo(folder.resolve(LatencyRecorder.SUMMARY_FILE), run, requests, analysis);
      String title = "RPC report: " + folder.toAbsolutePath().getFileName();
      Path page = folder.resolve(RpcReportPage.FILE);
      Files.writeString(page, RpcReportPage.render(title, requests, analysis, run, interrupted), StandardCharsets.UTF_8);
      System.out.println(SummaryTable.render(requests));
      for (RunAnalysis.Level l : analysis.levels()) {
        if (l.saturation() != null && l.saturation().saturated()) {
          System.out.println("SATURATED [" + l.saturation().limit() + "] " + l.request() + ": " + l.saturation().reason());
        }
      }
      System.out.println("RPC summary (µs latencies): " + file.toAbsolutePath());
      printWarnings(analysis, System.out);
      pointAtReportOnExit(page);
    } catch (IOException | RuntimeException e) {
      ExitStatus.internalError("the RPC report could not be written in " + folder, e);
    }
    for (SummaryListener listener : LISTENERS) {
      try {
        listener.written(folder, requests, analysis, interrupted);
      } catch (IOException | RuntimeException | LinkageError | AssertionError e) {
        ExitStatus.internalError(listener.what() + " could not be written in " + folder, e);
      }
    }
  }

  /** What a merge of several injectors' summaries needs: who ran it, when, with which load settings. */
  private void identify(Map<String, Object> run) {
    LoadParams params = LoadParams.fromSystemProperties();
    try {
      run.put("injector", Injector.of(params).asMap());
    } catch (IllegalArgumentException e) { // checked before the run (EchoSimulation): not a run of ours
      run.put("injector", Map.of("index", 0, "count", 1));
    }
    run.put("startedAt", java.time.Instant.ofEpochMilli(startedAt).toString());
    run.put("startedAtEpochMillis", startedAt);
    if (folder != null) {
      run.put("gatlingRun", folder.toAbsolutePath().getFileName().toString());
    }
    run.put("settings", params.loadSettings());
  }

  /** The validity lines of a run's console: what was not checked, then each warning (or none). */
  public static void printWarnings(RunAnalysis analysis, java.io.PrintStream console) {
    List<RunAnalysis.Warning> warnings = analysis.warnings();
    analysis.cpuNotSampled().ifPresent(why -> console.println("Validity: other work on the machine not checked"
        + " (CPU shares not measured: " + why + ")."));
    if (warnings.isEmpty()) {
      console.println("Validity: no warnings.");
      return;
    }
    console.println("Validity: " + warnings.size() + " warning(s): the figures of these levels should not be trusted"
        + " as they are.");
    for (RunAnalysis.Warning w : warnings) {
      console.println("WARNING [" + w.kind() + "] " + w.request() + ": " + w.message());
    }
  }

  /**
   * Gatling prints its own report's path after this summary; a shutdown hook runs after Gatling's
   * last line, so the console ends by naming the page that has the µs figures and the warnings.
   */
  private static void pointAtReportOnExit(Path page) {
    try {
      Runtime.getRuntime().addShutdownHook(ExitStatus.hook(() -> {
        System.out.println("RPC report (µs latencies, true calls/s per level, validity warnings): "
            + page.toAbsolutePath().toUri());
        System.out.flush();
      }));
    } catch (IllegalStateException alreadyShuttingDown) {
      System.out.println("RPC report: " + page.toAbsolutePath().toUri());
    }
  }
}
