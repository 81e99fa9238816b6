package protocols.merge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import protocols.stats.CpuSampler;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.rpc.Errors;
import protocols.lab.JvmCommand;
import protocols.lab.LoadParams;
import protocols.lab.RpcFramework;
import protocols.load.Warmup;

/**
 * {@code -Dinjectors=N} on one machine: this JVM starts the server once (or checks {@code -Dtarget}),
 * launches N Gatling JVMs as injectors {@code 0/N..N-1/N} with one {@code -DstartAt}, waits for all,
 * and merges their summaries into one {@code rpc-report.html}. It runs no load itself and ends the JVM
 * with the injectors' worst exit status (2 when a level failed its KO assertion).
 */
public final class LocalInjectors {
  /** Lines of an injector's console shown here as they come; the whole console is in its log file. */
  private static final List<String> RELAYED = List.of("error:", "WARNING", "SATURATED", "injector:", "auto:",
      "Validity:");
  /** Parameters this JVM sets for each injector, or keeps for itself. */
  private static final Set<String> NOT_PASSED = Set.of("injectors", "injector", "startAt", "startDelay", "target",
      "serverDelayUs", "metrics.port");
  private static final Duration STOP_GRACE = Duration.ofSeconds(60);

  private LocalInjectors() {}

  /** Runs the injectors and merges them, then ends this JVM; never returns. */
  public static void runAndExit(RpcFramework<?, ?> framework, LoadParams params, String simulationClass) {
    int n = params.injectors();
    if (params.deployed()) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dinjectors runs its injectors against one server; leave out -Dproviders"
            + " and -Dregistry");
      });
    }
    Duration delay = EchoRun.orExit(() -> startDelay(params));
    EchoRun server = EchoRun.start(framework, params, "target", new LabRun(params));
    int status;
    try {
      status = run(server, params, simulationClass, n, delay);
    } catch (IOException | RuntimeException e) {
      System.err.println("error: the local injectors failed: " + Errors.oneLine(e));
      status = 1;
    } finally {
      server.stop();
    }
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /**
   * {@code -DstartDelay} seconds from launching the injectors to their first level: JVM start, the probe
   * and the warm-up must fit in it, or every level starts late (each is planned from the first).
   * Default 20 s plus the warm-up's bound: a fixed {@code -Dwarmup}, or {@code -DwarmupMax} for auto
   * (an automatic warm-up of two injectors sharing a machine ran to its 60 s limit here), and its
   * rehearsal of a level's start (its bound and a population's gap).
   */
  static Duration startDelay(LoadParams params) {
    Warmup.Plan warmup = params.warmup();
    long bound = warmup.skipped() ? 0 : warmup.limit().toSeconds() + warmup.rehearsal().limit().toSeconds() + 2;
    return Duration.ofSeconds(params.intParam("startDelay", (int) Math.min(3_600, bound + 20), 5, 3_600));
  }

  private static int run(EchoRun server, LoadParams params, String simulationClass, int n, Duration delay)
      throws IOException {
    Path root = resultsFolder().resolve(simpleName(simulationClass).toLowerCase(Locale.ROOT) + "-injectors-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")));
    Files.createDirectories(root);
    Instant startAt = Instant.now().plus(delay).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    System.out.println("injectors: " + n + " Gatling JVMs against " + server.target() + ", first level at " + startAt
        + " (-DstartDelay " + delay.toSeconds() + " s); results in " + root.toAbsolutePath());
    List<Process> processes = new ArrayList<>();
    List<Thread> relays = new ArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean merged = new java.util.concurrent.atomic.AtomicBoolean();
    // Interrupted (Ctrl-C): the injectors are stopped with SIGTERM, write what they ran, and that is merged.
    Thread stopOnExit = new Thread(() -> {
      stop(processes);
      if (merged.compareAndSet(false, true)) {
        System.out.println("injectors: interrupted; merging what the injectors wrote");
        merge(root, n);
      }
    }, "injectors-stop");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    int metricsPort = params.intParam("metrics.port", 0, 1, 65_535 - n);
    for (int i = 0; i < n; i++) {
      List<String> options = new ArrayList<>(inheritedOptions());
      options.add("-Dinjector=" + i + "/" + n);
      options.add("-DstartAt=" + startAt.toEpochMilli());
      options.add("-Dtarget=" + server.target());
      options.add("-D" + CpuSampler.PEERS_OF + "=" + ProcessHandle.current().pid());
      if (metricsPort > 0) {
        options.add("-Dmetrics.port=" + (metricsPort + i)); // one endpoint each, on consecutive ports
      }
      Path results = root.resolve("injector-" + i);
      Files.createDirectories(results);
      List<String> args = new ArrayList<>(List.of("-s", simulationClass, "-rf", results.toAbsolutePath().toString()));
      args.addAll(List.of("-rd", runDescription(i, n, startAt)));
      Process p = new ProcessBuilder(JvmCommand.ofSameVm(options, "io.gatling.app.Gatling", args))
          .redirectErrorStream(true).start();
      processes.add(p);
      relays.add(relay(i, p.getInputStream(), root.resolve("injector-" + i + ".log")));
    }
    int status = 0;
    for (int i = 0; i < n; i++) {
      Process p = processes.get(i);
      int code = waitFor(p);
      join(relays.get(i));
      System.out.println("injectors: injector " + i + "/" + n + " exited with status " + code
          + (code == 0 ? "" : " (its console: " + root.resolve("injector-" + i + ".log") + ")"));
      status = code == 2 && status != 1 ? 2 : code != 0 ? 1 : status;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      return 1; // the hook stops the injectors and merges
    }
    if (!merged.compareAndSet(false, true)) {
      return 1;
    }
    return merge(root, n) ? status : 1;
  }

  /** Merges the injectors that wrote a summary into {@code root}; false if none did or it failed. */
  private static boolean merge(Path root, int n) {
    List<InjectorRun> runs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      try {
        runs.add(InjectorRun.read(root.resolve("injector-" + i)));
      } catch (IllegalArgumentException none) {
        System.err.println("error: injector " + i + "/" + n + " wrote no rpc-summary.json: see "
            + root.resolve("injector-" + i + ".log"));
      }
    }
    if (runs.isEmpty()) {
      System.err.println("error: no injector wrote a summary: nothing to merge");
      return false;
    }
    try {
      MergeCommand.write(runs, root, n, System.out);
      return true;
    } catch (IOException | RuntimeException e) {
      System.err.println("error: could not merge the injectors' runs: " + Errors.oneLine(e));
      return false;
    }
  }

  /** Until the injector ends; on this JVM's interruption the shutdown hook has stopped it. */
  private static int waitFor(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private static void join(Thread t) {
    try {
      t.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGTERM, so each injector writes its summary in its own shutdown hook; killed if it lingers. */
  private static void stop(List<Process> processes) {
    processes.forEach(Process::destroy);
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
    for (Process p : processes) {
      try {
        if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Writes the injector's console to {@code log}, showing the lines that matter here, prefixed. */
  private static Thread relay(int index, InputStream in, Path log) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
           PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          w.println(line);
          String l = line;
          if (RELAYED.stream().anyMatch(l::startsWith)) {
            System.out.println("[injector " + index + "] " + line);
          }
        }
      } catch (IOException e) {
        System.err.println("injector " + index + ": console lost: " + Errors.oneLine(e));
      }
    }, "injector-" + index + "-console");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** This JVM's -D parameters for an injector, but those the injectors get from here. */
  private static List<String> inheritedOptions() {
    List<String> out = new ArrayList<>();
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!a.startsWith("-D")) {
        continue;
      }
      String name = a.substring(2).split("=", 2)[0];
      if (!NOT_PASSED.contains(name) && !name.startsWith("target.")) {
        out.add(a);
      }
    }
    return out;
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** Gatling's -rf as this JVM got it (see {@link #gatlingArg}), else target/gatling as the Maven plugin's default. */
  static Path resultsFolder() {
    return gatlingArg("-rf").map(Paths::get).orElse(Paths.get("target", "gatling"));
  }

  /** The run description on top of each injector's Gatling report: which injector, then this run's own. */
  private static String runDescription(int index, int n, Instant startAt) {
    // Not from the command line: an IT's -rd is plain text with spaces.
    String own = bootArg("-rd").map(LocalInjectors::decodeBase64)
        .orElse(System.getProperty("gatling.runDescription", ""));
    String text = "Injector " + index + "/" + n + " of a -Dinjectors=" + n + " run (first level at " + startAt
        + "); the merged rpc-report.html is two folders up. " + own;
    // Gatling decodes a base64 -rd (as the Maven plugin sends it), so spaces and quotes survive.
    return java.util.Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeBase64(String v) {
    try {
      return new String(java.util.Base64.getDecoder().decode(v), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      return v;
    }
  }

  /**
   * An argument of this Gatling JVM: from the Maven plugin's booter jar, else from the command line
   * ({@code sun.java.command}, split at spaces).
   */
  private static java.util.Optional<String> gatlingArg(String option) {
    return bootArg(option).or(() -> {
      List<String> args = List.of(System.getProperty("sun.java.command", "").split(" "));
      int i = args.indexOf(option);
      return i >= 0 && i + 1 < args.size() ? java.util.Optional.of(args.get(i + 1)) : java.util.Optional.empty();
    });
  }

  /** An argument the Maven plugin passed through its booter jar ({@code META-INF/args.txt}, one per line). */
  private static java.util.Optional<String> bootArg(String option) {
    try (InputStream in = ClassLoader.getSystemResourceAsStream("META-INF/args.txt")) {
      if (in != null) {
        List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim).toList();
        int k = lines.indexOf(option);
        if (k >= 0 && k + 1 < lines.size()) {
          return java.util.Optional.of(lines.get(k + 1));
        }
      }
    } catch (IOException e) {
      // not started by the Maven plugin
    }
    return java.util.Optional.empty();
  }
}
