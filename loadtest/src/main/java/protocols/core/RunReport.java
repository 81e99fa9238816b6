package protocols.core;

import io.gatling.core.CoreComponents;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's {@code rpc-summary.json}: one latency recorder shared by every RPC protocol of a run,
 * written when the last of them closes, or by a shutdown hook if the run is interrupted first.
 */
final class RunReport {
  private static final Map<CoreComponents, RunReport> RUNS = new IdentityHashMap<>();

  private final CoreComponents core;
  private final LatencyRecorder recorder = new LatencyRecorder();
  private final Path folder;
  private final List<Map<String, Object>> protocols = new ArrayList<>();
  private final Thread shutdownHook;
  private int attached;

  private RunReport(CoreComponents core) {
    this.core = core;
    // Found now, while Gatling holds simulation.log open; Gatling does not expose its results folder.
    this.folder = RunFolder.ofCurrentRun().orElse(Paths.get("target", "gatling"));
    this.shutdownHook = new Thread(() -> write(true), "rpc-summary-on-exit");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  static synchronized RunReport attach(CoreComponents core, RpcProtocol<?, ?> protocol) {
    RunReport report = RUNS.computeIfAbsent(core, RunReport::new);
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
    p.putAll(protocol.describe());
    report.protocols.add(p);
    return report;
  }

  LatencyRecorder recorder() {
    return recorder;
  }

  void release() {
    synchronized (RunReport.class) {
      if (--attached > 0) {
        return;
      }
      RUNS.remove(core);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or about to: it writes the same figures
    }
    write(false);
  }

  private synchronized void write(boolean interrupted) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("protocols", protocols);
    run.put("interrupted", interrupted);
    try {
      Path file = recorder.writeSummary(folder, run);
      System.out.println(SummaryTable.render(recorder.snapshot()));
      System.out.println("RPC summary (µs latencies): " + file.toAbsolutePath());
    } catch (IOException e) {
      System.err.println("could not write " + LatencyRecorder.SUMMARY_FILE + " in " + folder + ": " + Errors.oneLine(e));
    }
  }
}
