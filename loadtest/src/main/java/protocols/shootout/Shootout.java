package protocols.shootout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import protocols.frameworks.Frameworks;
import protocols.lab.Discovery;
import protocols.lab.EchoRun;
import protocols.lab.JvmCommand;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.OwnedProcess;
import protocols.lab.Parameters;
import protocols.lab.Payload;
import protocols.lab.ProfilerAgent;
import protocols.report.Comparison;
import protocols.lab.RpcFramework;
import protocols.lab.RunFolder;
import protocols.lab.TlsMode;
import protocols.lab.Trials;
import protocols.report.TwoWays;
import protocols.rpc.Errors;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcProtocol;
import protocols.stats.profile.ProfileEvent;

/**
 * The write-ups' comparison in one Gatling run: every framework (and the ceiling) one after the
 * other through the same levels and mode(s), each against its own server, then the comparison
 * report. With {@code -Dplain=true} the plain Java driver first runs the same load on each
 * framework's client, each in its own JVM, for the Gatling-vs-plain ratios. With {@code
 * -Ddiscovery=direct,registry} each framework that has a registry runs twice, directly and through
 * it, one after the other, for what discovery costs.
 */
public final class Shootout extends VariantRun {
  /** The shared -D parameters a plain-driver JVM takes over from the shootout (and the frameworks' own). */
  static final List<String> PASSED_TO_PLAIN = List.of("levels", "duration", "calls", "warmup", "warmupMax", "settle", "timeout",
      "syncThreads", "connections", "orderNameChars", "maxMessageBytes", "koPauseMillis");
  /** The load settings that are not the plain driver's: open-model levels and ramps are refused with it. */
  static final java.util.Set<String> NOT_FOR_PLAIN = java.util.Set.of(
      "rates", "maxInFlight", "rateStart", "autoLevels", "ramp", "seed", // refused with -Dplain=true; the seed only orders trials
      "mode", // set per plain-driver JVM
      "repeat", // set per plain-driver JVM: the run's trials, also when -Drepeat is not given
      "maxKoPercent", // Gatling's assertion; the plain driver's KOs are in its summary
      "serverDelayUs"); // the embedded servers', not a client's


  /** The variants that are a framework at a payload size (-Dpayload). */
  private final List<Comparison.PayloadPoint> payloadPoints = new ArrayList<>();
  private final LabRun run;

  /** The shootout of {@code simulation}, which takes {@code uses} (the shootout's, and the nightly's). */
  public Shootout(String simulation, Set<Parameters.Use> uses) {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> frameworks = EchoRun.orExit(
        () -> Frameworks.parse(given.string("frameworks", String.join(",", Frameworks.names()))));
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run(simulation, uses, frameworks, true))
        .validate().singleInjector(simulation));
    List<InvocationMode> modes = EchoRun.orExit(params::modes);
    boolean plain = EchoRun.orExit(() -> params.bool("plain", false));
    if (plain && (params.rates().isPresent() || !params.ramp().isZero())) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dplain=true compares closed levels (-Dlevels) at full load only; leave out"
            + " -Drates and -Dramp");
      });
    }
    if (plain && params.deployed()) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dplain=true drives one server directly; leave out -Dproviders and"
            + " -Dregistry");
      });
    }
    List<Discovery> discovery = EchoRun.orExit(params::discovery);
    if (!discovery.isEmpty() && (plain || frameworks.stream()
        .anyMatch(f -> params.target(Parameters.TARGET_PREFIX + f.name()).isPresent()))) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Ddiscovery compares the lab's own providers called directly and through"
            + " a registry; leave out -Dplain and -Dtarget.<framework>");
      });
    }
    List<TlsMode> tlsModes = EchoRun.orExit(params::tlsModes);
    boolean comparesTls = tlsModes.size() > 1 || tlsModes.get(0).on();
    if (tlsModes.size() > 1 && plain || comparesTls && !discovery.isEmpty()) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dtls=" + String.join(",", tlsModes.stream().map(TlsMode::value).toList())
            + " compares TLS modes; leave out " + (plain ? "-Dplain" : "-Ddiscovery") + " (or give -Dtls one mode)");
      });
    }
    boolean nightly = uses.contains(Parameters.Use.NIGHTLY);
    boolean open = params.rates().isPresent(); // open-model levels cannot repeat yet
    // The nightly measures each level once unless told: its time is the CI job's.
    Trials trials = EchoRun.orExit(() -> Trials.of(params, open || nightly ? 1 : Trials.COMPARISON_REPEAT));
    if (trials.repeated() && open) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Drepeat=" + trials.repeat() + " repeats the closed levels; -Drates"
            + " levels run once: leave out -Drepeat");
      });
    }
    List<Integer> delays = Trials.serverDelays(params);
    if (delays.size() > 1 && (comparesTls || !discovery.isEmpty() || plain || frameworks.stream()
        .anyMatch(f -> params.target(Parameters.TARGET_PREFIX + f.name()).isPresent()))) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-DserverDelayUs=" + params.optional("serverDelayUs").orElse("")
            + " compares the lab's own servers at several delays; leave out -Dtls, -Ddiscovery, -Dplain and"
            + " -Dtarget.<framework> (or give one delay)");
      });
    }
    Map<RpcFramework<?, ?>, Configuration> tuned = EchoRun.orExit(() -> Configuration.tunedIn(params, frameworks));
    List<Payload> payloads = EchoRun.orExit(() -> Payload.list(params));
    // Sizes and tuned configurations are variants of the lab's own servers, each compared with nothing else.
    boolean comparesOther = plain || !discovery.isEmpty() || comparesTls || delays.size() > 1 || frameworks.stream()
        .anyMatch(f -> params.target(Parameters.TARGET_PREFIX + f.name()).isPresent());
    if (!payloads.isEmpty() && (comparesOther || !tuned.isEmpty())) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dpayload runs each framework at each size against the lab's own servers;"
            + " leave out -Dplain, -Dtuned, -Ddiscovery, -Dtls, a list of -DserverDelayUs and -Dtarget.<framework>");
      });
    }
    if (!tuned.isEmpty() && comparesOther) {
      EchoRun.orExit(() -> {
        throw new IllegalArgumentException("-Dtuned runs each framework as shipped and tuned, against the lab's own"
            + " servers; leave out -Dplain, -Ddiscovery, -Dtls, a list of -DserverDelayUs and -Dtarget.<framework>");
      });
    }
    // The seed in the run's settings (rpc-summary.json), also when it came from the clock: the order can be run again.
    run = new LabRun(trials.repeated() ? params.with("seed", Long.toString(trials.seed())) : params);
    if (comparesTls) { // what each framework's TLS client needs JVM-wide, before the first TLS client of any
      frameworks.forEach(f -> EchoRun.orExit(() -> {
        f.protocol(params).beforeTlsClients();
        return null;
      }));
    }
    List<TwoWays> pairs = new ArrayList<>();
    for (RpcFramework<?, ?> framework : frameworks) {
      String target = Parameters.TARGET_PREFIX + framework.name();
      boolean hasRegistry = EchoRun.registryOf(framework, params).isPresent();
      if (comparesTls) {
        EchoRun plaintext = null;
        for (TlsMode tls : tlsModes) {
          if (tls.on() && framework.protocol(params).tlsModes().isEmpty()) {
            System.out.println(framework.name() + " " + tls.label() + ": not run: "
                + framework.protocol(params).tlsImplementation());
            continue;
          }
          // The first call is timed on a second fresh client only where it is compared with plaintext's.
          EchoRun echo = EchoRun.start(framework, tls, params, target, run, tlsModes.contains(TlsMode.PLAINTEXT));
          runs.add(echo);
          if (!tls.on()) {
            plaintext = echo;
          } else if (plaintext != null) {
            pairs.add(new TwoWays(TwoWays.Contrast.TLS, plaintext.name(), echo.name(), tls.label(),
                plaintext.firstCallMillis(), echo.firstCallMillis()));
          }
        }
        continue;
      }
      if (delays.size() > 1) { // each delay a variant with its own server
        for (int i = 0; i < delays.size(); i++) {
          runs.add(EchoRun.start(framework, Trials.delayVariant(framework.name(), delays, i),
              params.with("serverDelayUs", Integer.toString(delays.get(i))), target, run));
        }
        continue;
      }
      if (!payloads.isEmpty()) { // each size a variant with its own server
        for (Payload p : payloads) {
          String name = p.variantName(framework.name());
          runs.add(EchoRun.start(framework, name, p.apply(params, payloads), target, run));
          payloadPoints.add(new Comparison.PayloadPoint(name, framework.name(), p.bytes(), p.label()));
        }
        continue;
      }
      if (!tuned.isEmpty()) { // as shipped, then tuned where its knobs are off the defaults
        Configuration shipped = Configuration.defaults(framework);
        runs.add(EchoRun.start(framework, shipped.name(), shipped.params(params), target, run));
        Configuration best = tuned.get(framework);
        if (best == null || best.defaults()) {
          System.out.println(framework.name() + ": as shipped only (-Dtuned sets none of its knobs off their defaults)");
        } else {
          runs.add(EchoRun.start(framework, best.name(), best.params(params), target, run));
        }
        continue;
      }
      if (discovery.isEmpty()) {
        runs.add(EchoRun.start(framework, params, target, run));
        continue;
      }
      Map<Discovery, EchoRun> ways = new LinkedHashMap<>();
      for (Discovery d : hasRegistry ? discovery : List.of(Discovery.DIRECT)) { // without a registry: direct only
        ways.put(d, EchoRun.start(framework, d, params, target, run));
      }
      runs.addAll(ways.values());
      EchoRun direct = ways.get(Discovery.DIRECT);
      EchoRun via = ways.get(Discovery.REGISTRY);
      if (direct != null && via != null) {
        pairs.add(new TwoWays(TwoWays.Contrast.DISCOVERY, direct.name(), via.name(),
            via.endpoints().registry().kind().scheme(), direct.firstCallMillis(), via.firstCallMillis()));
      }
    }
    PlainRuns plainRuns = plain ? runPlainDrivers(params, modes, trials) : new PlainRuns(Map.of(), PlainProfiles.NONE);
    Map<String, Path> plainResults = plainRuns.results();
    Map<String, Comparison.ClientLayout> layouts = new LinkedHashMap<>();
    for (EchoRun echo : runs) {
      List<InvocationMode> can = echo.modesOf(modes);
      if (can.size() < modes.size()) {
        System.out.println(echo.name() + ": not run in " + String.join(", ", modes.stream().filter(m -> !can.contains(m))
            .map(InvocationMode::label).toList()) + " mode: its client cannot encrypt such calls (it can in "
            + String.join(", ", echo.tlsModes().stream().map(InvocationMode::label).sorted().toList()) + ")");
      }
      for (InvocationMode mode : can) {
        RpcProtocol<?, ?> protocol = measure(echo, mode, trials);
        layouts.put(ComparisonReport.key(echo.name(), mode),
            Comparison.ClientLayout.of(protocol.clientPath(), echo.params().connections(), mode));
      }
    }
    sequence(params.levels(), trials);
    Map<String, String> versions = new LinkedHashMap<>();
    frameworks.forEach(f -> versions.put(f.name(), f.version()));
    run.onSummaryWritten(new ComparisonReport(frameworks(), versions, modes, params.levels(), Frameworks.CEILING,
        describe(params, frameworks, modes, plain, discovery, trials), plainResults, pairs, ceilings(), trials.seed())
        .withPayloads(payloadPoints).withLayouts(layouts)
        .withPlainProfiles(plainRuns.profiles()));
  }

  /** Over TLS, each run's ceiling is the ceiling's run in the same TLS mode; at a payload size, the ceiling's at it. */
  private Map<String, String> ceilings() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Comparison.PayloadPoint p : payloadPoints) {
      payloadPoints.stream().filter(c -> c.framework().equals(Frameworks.CEILING) && c.bytes() == p.bytes())
          .findFirst().ifPresent(c -> out.put(p.variant(), c.variant()));
    }
    for (EchoRun echo : runs) {
      runs.stream().filter(c -> c.framework().name().equals(Frameworks.CEILING) && c.tlsMode() == echo.tlsMode()
          && echo.tlsMode().on()).findFirst().ifPresent(c -> out.put(echo.name(), c.name()));
    }
    return out;
  }

  /** The run: its protocol goes beside the frameworks' ({@code setUp(...).protocols(shootout.run().protocol())}). */
  public LabRun run() {
    return run;
  }

  /** The frameworks' names in the run, in the order they run (with how they find their providers, when compared). */
  public List<String> frameworks() {
    return runs.stream().map(EchoRun::name).toList();
  }

  /** The plain drivers' results and, with -Dprofile, their recordings, each by {@link ComparisonReport#key}. */
  private record PlainRuns(Map<String, Path> results, PlainProfiles profiles) {
  }

  /**
   * Runs the plain driver on each framework and mode, each in its own JVM; with -Dprofile each JVM is
   * profiled from its start to its exit.
   */
  private PlainRuns runPlainDrivers(LoadParams params, List<InvocationMode> modes, Trials trials) {
    Path dir;
    try {
      // Beside the runs (Gatling's -rf): an interrupted shootout leaves them there, not in /tmp.
      Optional<Path> results = RunFolder.resultsFolder();
      dir = results.isPresent() ? Files.createTempDirectory(Files.createDirectories(results.get()), "plain-driver-")
          : Files.createTempDirectory("plain-driver-");
    } catch (IOException e) {
      throw new IllegalStateException("no temporary folder for the plain driver: " + e.getMessage());
    }
    Optional<ProfileEvent> profile = params.profile();
    ProfilerAgent.Library library = null;
    if (profile.isPresent()) {
      try {
        library = ProfilerAgent.Library.of(params, dir);
        if (!Files.isRegularFile(library.path())) {
          throw new IOException("no file " + library.path());
        }
      } catch (IOException e) {
        // A JVM told to load an agent that is not there does not start: JFR instead, as in Gatling's JVM.
        System.out.println("profile: the plain driver on JDK Flight Recorder: " + Errors.oneLine(e));
        library = null;
      }
    }
    Map<String, Path> profiles = new LinkedHashMap<>();
    try {
      Map<String, Path> results = runPlainDrivers(params, modes, trials, dir, profile.orElse(null),
          library == null ? null : library.path(), profiles);
      return new PlainRuns(results, profile.isEmpty() ? PlainProfiles.NONE
          : PlainProfiles.of(profile.get(), library != null, profiles));
    } finally {
      if (library != null) {
        library.delete();
      }
    }
  }

  private Map<String, Path> runPlainDrivers(LoadParams params, List<InvocationMode> modes, Trials trials, Path dir,
                                            ProfileEvent profile, Path library, Map<String, Path> profiles) {
    Map<String, Path> results = new LinkedHashMap<>();
    long perLevel = params.calls().isPresent() ? TimeUnit.HOURS.toSeconds(1) : params.duration().toSeconds();
    long limitSeconds = params.warmup().limit().toSeconds()
        + (long) params.levels().size() * trials.repeat() * (perLevel + params.settle().limit().toSeconds() + 10) + 60;
    for (EchoRun echo : runs) {
      for (InvocationMode mode : echo.modesOf(modes)) {
        String name = echo.framework().name();
        String file = echo.name().replace(' ', '-') + "-" + mode.label();
        Path out = dir.resolve("plain-" + file + ".json");
        Set<String> passed = new LinkedHashSet<>(PASSED_TO_PLAIN); // each once: -Dconnections is the lab's and a knob
        echo.framework().params().stream().map(RpcFramework.Param::property).forEach(passed::add);
        List<String> options = new ArrayList<>(params.asJvmOptions(List.copyOf(passed)));
        options.addAll(List.of("-Dmode=" + mode.label(), "-Drepeat=" + trials.repeat(), "-Dtarget=" + echo.target(),
            "-Dplain.framework=" + name, "-Dplain.out=" + out));
        options.addAll(echo.tlsOptions());
        if (profile != null) {
          Path jfr = dir.resolve("plain-" + file + ".jfr");
          options.addAll(ProfilerAgent.jvmOptions(profile, library, jfr));
          profiles.put(ComparisonReport.key(echo.name(), mode), jfr);
        }
        System.out.println("plain driver: " + echo.name() + " (" + mode.label() + ") ...");
        // Owned: an interrupted shootout (Ctrl-C, SIGTERM) stops the plain driver too.
        try (OwnedProcess p = OwnedProcess.start(new ProcessBuilder(
            JvmCommand.ofSameVm(options, PlainDriver.class.getName(), List.of()))
            .redirectErrorStream(true).redirectOutput(dir.resolve(file + ".log").toFile()))) {
          OptionalInt code = p.waitFor(Duration.ofSeconds(limitSeconds));
          if (Thread.currentThread().isInterrupted()) {
            return results;
          }
          if (code.isEmpty()) {
            System.err.println("plain driver " + name + " (" + mode.label() + ") overran " + limitSeconds + " s; stopped");
          } else if (code.getAsInt() != 0) {
            System.err.println("plain driver " + name + " (" + mode.label() + ") failed; log in " + dir);
          }
        } catch (IOException e) {
          System.err.println("plain driver " + name + " could not start: " + e.getMessage());
        }
        results.put(ComparisonReport.key(echo.name(), mode), out);
      }
      // Gatling then finds the server as the plain driver did: a new process, and the same warm-up.
      // One line if it cannot: the server would not start, or the run is ending (Ctrl-C, SIGTERM).
      EchoRun.orExit(() -> {
        echo.freshServer();
        return null;
      });
    }
    return results;
  }

  private Map<String, String> describe(LoadParams params, List<RpcFramework<?, ?>> frameworks,
                                       List<InvocationMode> modes, boolean plain, List<Discovery> discovery,
                                       Trials trials) {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("frameworks", String.join(",", frameworks.stream().map(RpcFramework::name).toList()));
    d.put("mode", String.join(",", modes.stream().map(InvocationMode::label).toList()));
    d.put("levels", params.levels().toString());
    d.put("trials per level", trials.repeat() + (trials.repeated() ? ", interleaved (-Dseed=" + trials.seed() + ")"
        : ""));
    params.optional("serverDelayUs").ifPresent(v -> d.put("server delay (µs)", v));
    params.rates().ifPresent(r -> {
      d.put("rates (calls/s)", r.describe());
      d.put("max in flight", Integer.toString(params.maxInFlight()));
    });
    d.put("ramp (s)", Long.toString(params.ramp().toSeconds()));
    d.put(params.calls().isPresent() ? "calls per client" : "duration per level (s)",
        params.calls().map(String::valueOf).orElse(Long.toString(params.duration().toSeconds())));
    d.put("warm-up", params.warmup().describe());
    d.put("timeout (ms)", Long.toString(params.timeout().toMillis()));
    d.put("sync threads", Integer.toString(params.syncThreads()));
    d.put("connections", params.connections() == 0 ? "framework default" : Integer.toString(params.connections()));
    d.put("order name (chars)", Integer.toString(params.orderName().length()));
    for (RpcFramework<?, ?> f : frameworks) {
      f.params().forEach(p -> d.put(f.name() + " -D" + p.property(), p.value(params)));
    }
    params.optional("tuned").ifPresent(f -> d.put("tuned", f + ": each framework as shipped and in the"
        + " configuration named by its knobs off the defaults"));
    params.optional("payload").ifPresent(v -> d.put("payload (bytes of the order's name)", v));
    d.put("plain driver", Boolean.toString(plain));
    d.put("tls", String.join(",", params.tlsModes().stream().map(TlsMode::label).toList()));
    if (!discovery.isEmpty()) {
      d.put("discovery", String.join(",", discovery.stream().map(Discovery::label).toList())
          + " (frameworks without a registry of their own run direct only)");
    }
    for (EchoRun echo : runs) {
      d.put("target " + echo.name(), echo.endpoints().toString());
    }
    return d;
  }
}
