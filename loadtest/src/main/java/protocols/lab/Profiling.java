package protocols.lab;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import one.profiler.AsyncProfiler;
import protocols.load.RunAnalysis;
import protocols.rpc.Errors;
import protocols.stats.CpuSampler;
import protocols.stats.RequestStats;
import protocols.stats.profile.Breakdown;
import protocols.stats.profile.Flames;
import protocols.stats.profile.LevelProfile;
import protocols.stats.profile.ProfileEvent;

/**
 * {@code -Dprofile}: the injector JVM and every provider JVM the lab started record samples from the
 * run's start (async-profiler: in this JVM through its Java API, in the servers loaded through the
 * attach API, as asprof does; where it cannot load, JDK Flight Recorder's method sampling), and when the
 * run ends each measured level gets its own slice of them, by the level's start and end: a flame graph
 * per side and a breakdown by component. Warm-ups, ramps and settles are recorded but never sliced.
 * Everything sits in the run's folder ({@code profiles/}); the library extracted there is deleted.
 */
final class Profiling {
  private static final String JFR_NAME = "rpc-lab-profile";

  private final ProfileEvent event;
  private final Path folder;
  /** async-profiler's library, loaded here and into the servers; null on JDK Flight Recorder. */
  private final ProfilerAgent.Library library;
  private final AsyncProfiler profiler;
  private final Recording recording;
  private final String profilerName;
  private final Set<Long> servers = new LinkedHashSet<>();
  private final List<String> problems = new ArrayList<>();

  private Profiling(ProfileEvent event, Path folder, ProfilerAgent.Library library, AsyncProfiler profiler,
                    Recording recording, String profilerName) {
    this.event = event;
    this.folder = folder;
    this.library = library;
    this.profiler = profiler;
    this.recording = recording;
    this.profilerName = profilerName;
  }

  /**
   * Starts profiling this JVM into {@code runFolder/profiles}, if -Dprofile asks; says on the console
   * which profiler runs (and why not async-profiler, where it cannot load).
   */
  static Optional<Profiling> start(LoadParams params, Path runFolder) {
    Optional<ProfileEvent> asked = params.profile();
    if (asked.isEmpty()) {
      return Optional.empty();
    }
    ProfileEvent event = asked.get();
    Path folder = runFolder.resolve("profiles");
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      System.out.println("profile: not recorded: cannot create " + folder + ": " + Errors.oneLine(e));
      return Optional.empty();
    }
    ProfilerAgent.Library library = null;
    String why;
    try {
      library = ProfilerAgent.Library.of(params, folder);
      AsyncProfiler profiler = AsyncProfiler.getInstance(library.path().toAbsolutePath().toString());
      String version = profiler.execute("version").trim();
      profiler.execute(ProfilerAgent.startCommand(event, folder.resolve("injector.jfr")));
      String name = ProfilerAgent.name(version, event);
      System.out.println("profile: " + name + ", each measured level of the injector and of the servers the lab"
          + " starts: " + folder);
      return Optional.of(new Profiling(event, folder, library, profiler, null, name));
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      why = Errors.oneLine(e);
    }
    if (library != null) {
      library.delete();
    }
    Recording recording = new Recording(jfrConfiguration());
    recording.setName(JFR_NAME);
    recording.setToDisk(true);
    try {
      recording.setDestination(folder.resolve("injector.jfr"));
    } catch (IOException e) {
      System.out.println("profile: not recorded: " + Errors.oneLine(e));
      return Optional.empty();
    }
    recording.start();
    String name = ProfilerAgent.FLIGHT_RECORDER;
    System.out.println("profile: async-profiler could not load (" + why + "); " + name + " instead: " + folder);
    return Optional.of(new Profiling(event, folder, null, null, recording, name));
  }

  private static Configuration jfrConfiguration() {
    try {
      return Configuration.getConfiguration("profile");
    } catch (IOException | java.text.ParseException e) {
      throw new IllegalStateException("the JDK's JFR 'profile' settings: " + Errors.oneLine(e), e);
    }
  }

  /** The profiler's name as the page and the summary give it. */
  String profilerName() {
    return profilerName;
  }

  /** Starts recording in the server processes {@code pids} not yet recorded (the lab's own providers only). */
  synchronized void servers(Set<Long> pids) {
    for (long pid : pids) {
      if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) || !servers.add(pid)) {
        continue;
      }
      Path jfr = serverJfr(pid);
      try {
        if (profiler != null) {
          load(pid, ProfilerAgent.startCommand(event, jfr));
        } else {
          jcmd(pid, "JFR.start", "name=" + JFR_NAME, "settings=profile", "filename=" + jfr.toAbsolutePath());
        }
      } catch (IOException | RuntimeException e) {
        problems.add("server " + pid + " not profiled: " + Errors.oneLine(e));
        System.out.println("profile: server process " + pid + " not profiled: " + Errors.oneLine(e));
      }
    }
  }

  private Path serverJfr(long pid) {
    return folder.resolve("server-" + pid + ".jfr");
  }

  private void load(long pid, String command) throws IOException {
    VirtualMachine vm;
    try {
      vm = VirtualMachine.attach(Long.toString(pid));
    } catch (com.sun.tools.attach.AttachNotSupportedException e) {
      throw new IOException("cannot attach: " + e.getMessage(), e);
    }
    try {
      vm.loadAgentPath(library.path().toAbsolutePath().toString(), command);
    } catch (com.sun.tools.attach.AgentLoadException | com.sun.tools.attach.AgentInitializationException e) {
      throw new IOException("async-profiler refused '" + command + "': " + e.getMessage(), e);
    } finally {
      vm.detach();
    }
  }

  private static void jcmd(long pid, String... command) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid)));
    cmd.addAll(List.of(command));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("jcmd " + String.join(" ", command) + " did not answer within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    if (p.exitValue() != 0) {
      throw new IOException("jcmd " + command[0] + " exited " + p.exitValue() + ": " + out.lines().reduce((a, b) -> b)
          .orElse(""));
    }
  }

  /** Stops every recording: its files are then complete. Servers that have ended lost theirs (a fault's kill). */
  synchronized void stop() {
    if (profiler != null) {
      try {
        profiler.execute("stop");
      } catch (IOException | RuntimeException e) {
        problems.add("injector: " + Errors.oneLine(e));
      }
    } else {
      recording.stop();
      recording.close();
    }
    for (long pid : servers) {
      if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        try {
          if (profiler != null) {
            load(pid, "stop");
          } else {
            jcmd(pid, "JFR.stop", "name=" + JFR_NAME);
          }
        } catch (IOException | RuntimeException e) {
          problems.add("server " + pid + ": " + Errors.oneLine(e));
        }
      }
    }
    if (library != null) {
      library.delete();
    }
  }

  /**
   * Each measured level's two sides: a flame graph each in {@code profiles/}, and their breakdowns.
   *
   * @param serversOf the server processes of a level (its framework's providers)
   */
  List<LevelProfile> levels(List<RequestStats> requests, RunAnalysis analysis,
                            Function<RequestStats, Set<Long>> serversOf) {
    List<LevelProfile> out = new ArrayList<>();
    int n = 0;
    for (RequestStats r : requests) {
      // A request without a level (a stream's, a simulation's own) is measured whole.
      if (r.count() == 0 || r.level() != null && (!r.level().kind().measured() || r.level().duringFault())) {
        continue;
      }
      n++;
      long from = r.startEpochMillis();
      long to = r.sendEndEpochMillis() > 0 ? r.sendEndEpochMillis() : r.endEpochMillis();
      CpuSampler.Shares cpu = analysis.level(r.name()).map(RunAnalysis.Assessment::cpu).orElse(null);
      double ok = r.okThroughput();
      boolean split = ProfilerAgent.cpuTime(event, profiler != null) && cpu != null && ok > 0;
      Double injectorCpu = split ? cpu.injectorCores() * 1e6 / ok : null;
      Double serverCpu = split ? cpu.serverCores() * 1e6 / ok : null;
      List<Path> serverFiles = serversOf.apply(r).stream().filter(servers::contains).map(this::serverJfr).toList();
      out.add(side(r, n, LevelProfile.Side.INJECTOR, List.of(folder.resolve("injector.jfr")), from, to, injectorCpu));
      if (!serverFiles.isEmpty()) {
        out.add(side(r, n, LevelProfile.Side.SERVER, serverFiles, from, to, serverCpu));
      }
    }
    return out;
  }

  private LevelProfile side(RequestStats r, int n, LevelProfile.Side side, List<Path> jfrs, long from, long to,
                            Double cpuPerCall) {
    String file = String.format(Locale.ROOT, "level-%02d-%s.html", n, side.label());
    try {
      return Flames.side(r.name(), side, jfrs, from, to, event, profilerName, folder.getParent(), "profiles/" + file,
          cpuPerCall);
    } catch (IOException | RuntimeException e) {
      problems.add(r.name() + " " + side.label() + ": " + Errors.oneLine(e));
      return LevelProfile.of(r.name(), side, null, new Breakdown(), null);
    }
  }

  /** What went wrong on the way, one line each. */
  List<String> problems() {
    return List.copyOf(problems);
  }

}
