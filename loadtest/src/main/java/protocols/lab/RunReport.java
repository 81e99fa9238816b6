package protocols.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import protocols.load.RunAnalysis;
import protocols.load.SummaryListener;
import protocols.report.RpcReportPage;
import protocols.report.SummaryTable;
import protocols.rpc.Errors;
import protocols.stats.CpuSampler;
import protocols.stats.RequestStats;
import protocols.stats.StreamStats;
import protocols.stats.StreamTrials;
import protocols.stats.RunInfo;
import protocols.stats.Summaries;
import protocols.stats.Validity;
import protocols.stats.profile.LevelProfile;
import protocols.stats.profile.Profiles;

/**
 * What a run writes when it ends, or when it is interrupted first: {@code rpc-summary.json},
 * {@code rpc-report.html}, the console's table and validity lines, and each listener's files and
 * verdict. Where the CPU went is sampled from the run's start to then.
 */
final class RunReport {
  private final LabRun run;
  private final Path folder;
  private final Optional<CpuSampler> cpu;
  private final Optional<Profiling> profiling;
  private final String cpuNotSampled;
  private final long startedAt = System.currentTimeMillis();
  private final Thread onInterrupt;
  private boolean written;

  private RunReport(LabRun run, Path folder) {
    this.run = run;
    this.folder = folder;
    this.cpuNotSampled = CpuSampler.notMeasurable(run.pinning().isPresent()).orElse("the CPU was not sampled");
    this.cpu = CpuSampler.start(EchoRun.orExit(() -> DeclaredServers.of(run.params())), // bad -DserverPids: one line
        run.pinning().isPresent());
    this.profiling = Profiling.start(run.params(), folder);
    this.onInterrupt = new Thread(() -> write(true), "rpc-summary-on-exit");
  }

  /** Profiles the provider processes {@code pids} too, with -Dprofile (those not yet profiled). */
  void profileServers(java.util.Set<Long> pids) {
    profiling.ifPresent(p -> p.servers(pids));
  }

  /** Starts the run's report in {@code folder}: written at {@link #end}, or at once if the JVM is stopped first. */
  static RunReport start(LabRun run, Path folder) {
    RunReport report = new RunReport(run, folder);
    Runtime.getRuntime().addShutdownHook(report.onInterrupt);
    return report;
  }

  /** The machine's CPU shares over the last 10 s, while the run goes. */
  Optional<CpuSampler.Shares> recentCpu() {
    long now = System.nanoTime();
    return cpu.flatMap(c -> c.between(now - 10_000_000_000L, now));
  }

  /** The run is over: writes everything, once. */
  void end() {
    try {
      Runtime.getRuntime().removeShutdownHook(onInterrupt);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or about to: it writes the same figures
    }
    write(false);
  }

  private synchronized void write(boolean interrupted) {
    if (written) {
      return;
    }
    written = true;
    cpu.ifPresent(CpuSampler::close);
    if (!interrupted) {
      profiling.ifPresent(Profiling::stop);
    }
    ExitStatus exit = run.exit();
    List<RequestStats> requests = run.recorder().snapshot();
    List<StreamStats> streams = run.streams().snapshot(name -> requests.stream().filter(r -> r.name().equals(name))
        .mapToDouble(RequestStats::durationSeconds).filter(d -> d > 0).findFirst());
    List<RunInfo.WarmupOutcome> warmups = run.warmupOutcomes();
    List<RunInfo.WarmupOutcome> settles = run.settleOutcomes();
    List<RunInfo.FaultOutcome> faults = run.faults().outcomes();
    Function<RequestStats, String> echoOf = echoOf(streams);
    RunAnalysis analysis = RunAnalysis.of(requests, cpu, warmups, settles, faults,
        r -> run.servers().ownServers(echoOf.apply(r)))
        .withCpuNotSampledBecause(cpuNotSampled);
    StreamTrials streamTrials = StreamTrials.of(streams, streams.isEmpty() ? 0 : Trials.of(run.params(), 1).seed(),
        name -> analysis.warnings().stream().anyMatch(w -> w.request().equals(name)));
    RunInfo info = RunInfo.ofRun(run.protocols(), interrupted, injector(), startedAt,
        folder.toAbsolutePath().getFileName().toString(), run.params().loadSettings(), warmups, faults, settles);
    Path page = folder.resolve(RpcReportPage.FILE);
    Profiles profiles = profiles(requests, analysis, interrupted, echoOf);
    try {
      Path file = Summaries.write(folder.resolve(Summaries.FILE), new Summaries.Summary(info, analysis.warnings(),
          requests, validity(analysis), streams));
      if (profiles != null) {
        Summaries.recordProfiles(file, profiles);
      }
      if (!streamTrials.isEmpty()) {
        Summaries.recordStreamTrials(file, streamTrials);
      }
      String title = "RPC report: " + folder.toAbsolutePath().getFileName();
      Files.writeString(page, RpcReportPage.render(title, requests, streams, analysis, info, interrupted, null,
          profiles, streamTrials), StandardCharsets.UTF_8);
      System.out.println(SummaryTable.render(requests));
      System.out.print(SummaryTable.streams(streams));
      System.out.print(SummaryTable.streamTrials(streamTrials));
      System.out.print(SummaryTable.saturated(analysis));
      System.out.println("RPC summary (µs latencies): " + file.toAbsolutePath());
      SummaryTable.printValidity(analysis, System.out);
    } catch (IOException | RuntimeException e) {
      exit.internalError("the RPC report could not be written in " + folder, e);
    }
    for (SummaryListener listener : run.listeners()) {
      try {
        if (profiles != null) {
          listener.profiled(profiles);
        }
        listener.written(folder, requests, analysis, interrupted).forEach(exit::fail);
      } catch (IOException | RuntimeException | LinkageError | AssertionError e) {
        exit.internalError(listener.what() + " could not be written in " + folder, e);
      }
    }
    pointAtReportOnExit(page, exit);
  }

  /** Which echo's servers a request measured: its level's framework, a stream level's, or null (not named). */
  private static Function<RequestStats, String> echoOf(List<StreamStats> streams) {
    Map<String, String> streamEchoes = new HashMap<>();
    streams.stream().filter(s -> s.level() != null).forEach(s -> streamEchoes.put(s.name(), s.level().framework()));
    return r -> r.level() != null ? r.level().framework() : streamEchoes.get(r.name());
  }

  /** Each measured level's profiles (with -Dprofile), or null; none from an interrupted run. */
  private Profiles profiles(List<RequestStats> requests, RunAnalysis analysis, boolean interrupted,
                            Function<RequestStats, String> echoOf) {
    if (profiling.isEmpty()) {
      return null;
    }
    if (interrupted) {
      System.out.println("profile: not sliced by level: the run was interrupted (its recordings are in "
          + folder.resolve("profiles") + ")");
      return null;
    }
    Profiling p = profiling.get();
    List<LevelProfile> levels = p.levels(requests, analysis, r -> run.servers().providersOf(echoOf.apply(r)));
    p.problems().forEach(line -> System.out.println("profile: " + line));
    System.out.print(SummaryTable.profiles(levels));
    return new Profiles(p.profilerName(), levels, p.problems());
  }

  static Map<String, Validity> validity(RunAnalysis analysis) {
    Map<String, Validity> out = new java.util.LinkedHashMap<>();
    analysis.levels().forEach(l -> out.put(l.request(), l.validity()));
    return out;
  }

  /** Who ran it, for a merge of several injectors' summaries. */
  private RunInfo.Injector injector() {
    try {
      return Injector.of(run.params()).info();
    } catch (IllegalArgumentException e) { // checked before the run: not a run of ours
      return RunInfo.Injector.ALONE;
    }
  }

  /**
   * Gatling prints its own report's path after this summary; a shutdown hook runs after Gatling's
   * last line, so the console ends by naming the page that has the µs figures and the warnings, then
   * the run's outcome (Gatling's assertions read from its report, the lab's verdicts), which also goes
   * into rpc-summary.json; and sets the run's exit status.
   */
  private void pointAtReportOnExit(Path page, ExitStatus exit) {
    try {
      Runtime.getRuntime().addShutdownHook(exit.hook(() -> {
        System.out.println("RPC report (µs latencies, true calls/s per level, validity warnings): "
            + page.toAbsolutePath().toUri());
        Optional<Outcome.Assertions> assertions;
        List<String> why = new ArrayList<>(exit.whys());
        try {
          assertions = Outcome.gatlingAssertions(folder);
        } catch (IOException | RuntimeException e) {
          assertions = Optional.empty();
          why.add("Gatling's assertions could not be read from its report: " + Errors.oneLine(e));
        }
        recordOutcome(Outcome.of(exit.status(), assertions, why));
      }));
    } catch (IllegalStateException interrupted) { // the JVM is stopping: its own status stands
      System.out.println("RPC report: " + page.toAbsolutePath().toUri());
      exit.lines().forEach(System.err::println);
      recordOutcome(new Outcome.Ended(Outcome.INTERRUPTED, "stopped before its end: the figures cover what it ran"));
    }
  }

  /** Prints the outcome last and adds it to rpc-summary.json. */
  private void recordOutcome(Outcome.Ended ended) {
    try {
      Summaries.recordOutcome(folder.resolve(Summaries.FILE), ended.outcome().id(), ended.detail());
    } catch (IOException | RuntimeException e) {
      System.err.println("error: the outcome could not be added to " + Summaries.FILE + ": " + Errors.oneLine(e));
    }
    System.out.println(ended.line());
    System.out.flush();
  }
}
