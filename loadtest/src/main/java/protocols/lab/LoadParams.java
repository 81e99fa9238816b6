package protocols.lab;

import contract.SampleOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import protocols.rpc.RpcSettings;
import protocols.rpc.InvocationMode;
import protocols.rpc.HostPort;
import protocols.rpc.Tls;
import protocols.load.Warmup;
import protocols.load.OpenLoad;
import protocols.load.Faults;

/**
 * The -D parameters every echo simulation takes. Parsing is strict: a malformed value is an
 * {@link IllegalArgumentException} naming the parameter, never a silent default.
 */
public final class LoadParams {
  public static final String DEFAULT_LEVELS = "1,5,20,50,100";
  public static final int DEFAULT_DURATION_SECONDS = 15;
  public static final String DEFAULT_WARMUP = "auto";
  public static final int DEFAULT_MAX_IN_FLIGHT = 10_000;
  public static final int DEFAULT_RATE_START = 1_000;
  public static final int DEFAULT_AUTO_LEVELS = 12;

  private final Map<String, String> values;

  public LoadParams(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  public static LoadParams fromSystemProperties() {
    Properties props = System.getProperties();
    Map<String, String> m = new LinkedHashMap<>();
    for (String name : props.stringPropertyNames()) {
      m.put(name, protocols.rpc.SystemProperty.asTyped(props.getProperty(name)));
    }
    return new LoadParams(m);
  }

  private Optional<String> raw(String name) {
    String v = values.get(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
  }

  /**
   * Concurrency levels (closed loop), in the order they run: {@code -Dlevels=1,5,20,50,100}; none
   * when only {@code -Drates} is given.
   */
  public List<Integer> levels() {
    if (raw("levels").isEmpty() && raw("rates").isPresent()) {
      return List.of();
    }
    return ParamValues.distinctList("levels", raw("levels").orElse(DEFAULT_LEVELS), 10_000, "a comma-separated list of client"
        + " counts from 1 to 10000, e.g. 1,5,20,50,100", "level");
  }

  /** {@code -D<name>=1,10,100}: distinct whole numbers from 1 to {@code max}, each a level of what {@code each} names. */
  public List<Integer> levelList(String name, String defaultValue, int max, String each) {
    return ParamValues.distinctList(name, raw(name).orElse(defaultValue), max, "a comma-separated list of " + each + " counts from 1"
        + " to " + max + ", e.g. " + defaultValue, each + " count");
  }

  /**
   * Open-model levels: {@code -Drates=1000,5000,20000} (calls/s, each for {@code -Dduration}, after
   * the closed levels if {@code -Dlevels} is given too) or {@code -Drates=auto}; empty when not given.
   */
  public Optional<OpenLoad.Rates> rates() {
    return raw("rates").map(v -> {
      if (v.equals("auto")) {
        return OpenLoad.Rates.auto(intParam("rateStart", DEFAULT_RATE_START, 1, 10_000_000),
            intParam("autoLevels", DEFAULT_AUTO_LEVELS, 2, 50));
      }
      return OpenLoad.Rates.fixed(ParamValues.distinctList("rates", v, 10_000_000, "auto or a comma-separated list of calls per"
          + " second from 1 to 10000000, e.g. 1000,5000,20000", "rate"));
    });
  }

  /** {@code -DmaxInFlight}: an open-model level's cap on calls in flight; a call due beyond it is dropped. */
  public int maxInFlight() {
    return intParam("maxInFlight", DEFAULT_MAX_IN_FLIGHT, 1, 1_000_000);
  }

  /**
   * {@code -Dramp} seconds: closed levels add their users evenly over this time, rate levels ramp from
   * the previous rate; not measured. 0 (default): each level starts at full load.
   */
  public Duration ramp() {
    return Duration.ofSeconds(intParam("ramp", 0, 0, 3_600));
  }

  /**
   * {@code -DfaultsInLevel=true}: a fault window's calls stay in their level's row (and its KO
   * assertion), to see what a fault does to the level's percentiles; default false (a row apart).
   */
  public boolean faultsInLevel() {
    return bool("faultsInLevel", false);
  }

  /** How long each level runs: {@code -Dduration} seconds, unless {@link #calls()} is given. */
  public Duration duration() {
    return Duration.ofSeconds(intParam("duration", DEFAULT_DURATION_SECONDS, 1, 86_400));
  }

  /** Calls per client per level ({@code -Dcalls=300000} is the write-up's); empty means time-based. */
  public Optional<Integer> calls() {
    Optional<Integer> calls = raw("calls").map(v -> intParam("calls", 0, 1, Integer.MAX_VALUE));
    if (calls.isPresent() && levels().isEmpty()) {
      throw new IllegalArgumentException("-Dcalls counts calls per client of closed levels (-Dlevels); rate levels"
          + " (-Drates) run for -Dduration");
    }
    return calls;
  }

  /** {@code -Dwarmup} before the first level: auto (until stable, at most -DwarmupMax s), seconds, or 0. */
  public Warmup.Plan warmup() {
    return phase("warmup", DEFAULT_WARMUP, intParam("warmupMax", Warmup.DEFAULT_MAX_SECONDS, 4, 3_600));
  }

  /**
   * {@code -Dsettle} before each closed level's measured calls: auto (until steady, bounded), seconds, or 0.
   * Injectors must start each level together, so with several the default is fixed.
   */
  public Warmup.Plan settle() {
    boolean several = injectors() > 1 || injector().count() > 1;
    return phase("settle", several ? Integer.toString(Warmup.SETTLE_WINDOWS) : "auto", Warmup.DEFAULT_SETTLE_SECONDS);
  }

  private Warmup.Plan phase(String name, String defaultValue, int maxSeconds) {
    return Warmup.Plan.parse(name, raw(name).orElse(defaultValue), Duration.ofSeconds(maxSeconds));
  }

  public InvocationMode mode() {
    List<InvocationMode> modes = modes();
    if (modes.size() > 1) {
      throw new IllegalArgumentException("-Dmode=" + raw("mode").orElse("") + " runs several models one after the"
          + " other: RpcShootout, RpcNightly and OwnServiceDemo only");
    }
    return modes.get(0);
  }

  /**
   * {@code -Dmode} as the shootout takes it ({@link InvocationMode#parseList}).
   */
  public List<InvocationMode> modes() {
    return InvocationMode.parseList(raw("mode").orElse("async"));
  }

  /** {@code -Dtarget=host:port}: call that server instead of starting an embedded one. */
  public Optional<HostPort> target() {
    return target("target");
  }

  /** A {@code host:port} parameter, e.g. the shootout's {@code -Dtarget.dubbo}. */
  public Optional<HostPort> target(String name) {
    return raw(name).map(v -> {
      try {
        return HostPort.parse(v);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("-D" + name + ": " + e.getMessage());
      }
    });
  }

  /** A free-form parameter. */
  /** {@code -D<name>}, if given (not blank). */
  public Optional<String> optional(String name) {
    return raw(name);
  }

  /** TLS as -Dtls and its companions ask for it. */
  TlsSettings tls() {
    return TlsSettings.of(this);
  }

  /** The client's TLS to a server of the user's (or a plain driver's), as -Dtls and its files say; empty: plaintext. */
  public Optional<Tls> clientTls() {
    TlsSettings tls = tls();
    return tls.mode().on() ? Optional.of(tls.forTarget(tls.mode())) : Optional.empty();
  }

  /** {@code -Dtls}'s modes, in the order the shootout runs them. */
  public List<TlsMode> tlsModes() {
    return tls().modes();
  }

  public String string(String name, String defaultValue) {
    return raw(name).orElse(defaultValue);
  }

  /** {@code true} or {@code false}. */
  public boolean bool(String name, boolean defaultValue) {
    return switch (raw(name).orElse(Boolean.toString(defaultValue))) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("-D" + name + " must be true or false, got '" + raw(name).get() + "'");
    };
  }

  /**
   * The shared parameters that shape a run's load, as given: injectors of one run must agree on them
   * (the merge compares them; each framework's own settings are in the summary's protocols).
   */
  public static final List<String> LOAD_SETTINGS = List.of("levels", "rates", "duration", "calls", "warmup", "warmupMax", "settle",
      "mode", "timeout", "syncThreads", "connections", "orderNameChars", "maxMessageBytes", "maxInFlight", "rateStart",
      "autoLevels", "ramp", "koPauseMillis", "maxKoPercent", "serverDelayUs", "repeat", "seed");

  /** The given values of {@link #LOAD_SETTINGS}. */
  public Map<String, String> loadSettings() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String n : LOAD_SETTINGS) {
      raw(n).ifPresent(v -> m.put(n, v));
    }
    return m;
  }

  /** {@code -Dinjectors=N}: injector JVMs on this machine, merged into one result; 1 (default) is this JVM alone. */
  public int injectors() {
    int n = intParam("injectors", 1, 1, 64);
    if (n > 1) {
      if (raw("injector").isPresent()) {
        throw new IllegalArgumentException("-Dinjectors=" + n + " starts its injectors itself; -Dinjector names one"
            + " injector of a run started elsewhere: give one or the other");
      }
      if (raw("startAt").isPresent()) {
        throw new IllegalArgumentException("-Dinjectors=" + n + " sets the injectors' common -DstartAt itself; leave"
            + " it out");
      }
    }
    return n;
  }

  /** This JVM's place in a multi-injector run ({@code -Dinjector=i/N}, {@code -DstartAt}). */
  public Injector injector() {
    return Injector.of(this);
  }

  /** For a simulation that runs as one injector only: refuses the multi-injector parameters with one line. */
  public LoadParams singleInjector(String simulation) {
    for (String name : List.of("injectors", "injector", "startAt")) {
      if (raw(name).isPresent()) {
        throw new IllegalArgumentException(simulation + " runs as one injector; -D" + name + " is for the one-framework"
            + " echo simulations (e.g. -Dsimulation=DubboEcho -Dinjectors=2)");
      }
    }
    return this;
  }

  /** The raw values of {@code names} that were given, as {@code -Dname=value} options for another JVM. */
  public List<String> asJvmOptions(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      raw(n).ifPresent(v -> out.add("-D" + n + "=" + v));
    }
    return out;
  }

  public Duration timeout() {
    return Duration.ofMillis(intParam("timeout", (int) RpcSettings.DEFAULT_TIMEOUT.toMillis(), 1, 600_000));
  }

  public int syncThreads() {
    return intParam("syncThreads", RpcSettings.DEFAULT_SYNC_THREADS, 1, 10_000);
  }

  /** {@code -DkoPauseMillis}: a user's pause after a failed call. */
  public Duration koPause() {
    return Duration.ofMillis(intParam("koPauseMillis", (int) RpcSettings.DEFAULT_KO_PAUSE.toMillis(), 0, 60_000));
  }

  /** {@code -DmaxKoPercent}: a level with a larger share of KO fails the run (Gatling assertion, exit 2). */
  public double maxKoPercent() {
    String v = raw("maxKoPercent").orElse("1");
    try {
      double d = Double.parseDouble(v);
      if (d >= 0 && d <= 100) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-DmaxKoPercent must be a number from 0 to 100, got '" + v + "'");
  }

  /** {@code -DmaxFailingSeconds}: after this long with every call failing the run stops; 0 goes on. */
  public Duration maxFailingSeconds() {
    return Duration.ofSeconds(intParam("maxFailingSeconds", 10, 0, 86_400));
  }

  /** {@code -Dfaults=kill@10s,restart@13s}: faults injected into the embedded server in each level. */
  public List<Faults.Step> faults() {
    List<Faults.Step> steps = Faults.parse(raw("faults").orElse(""));
    if (!steps.isEmpty() && calls().isEmpty()) {
      Faults.Step last = steps.get(steps.size() - 1);
      if (last.at().compareTo(duration()) >= 0) {
        throw new IllegalArgumentException("-Dfaults: " + last.action().label() + " at " + last.at().toMillis()
            + " ms is not within the " + duration().toSeconds() + " s level (-Dduration)");
      }
    }
    return steps;
  }

  /**
   * {@code -DorderNameChars}: the sample order's name, cut or padded to this many characters, for
   * larger messages; unset, the write-ups' "Zhang San".
   */
  public String orderName() {
    return SampleOrder.name(intParam("orderNameChars", SampleOrder.NAME.length(), 0, 256 * 1024 * 1024));
  }

  /**
   * {@code -DmaxMessageBytes}: the size limit of every client and embedded server; unset, each
   * framework's own (docs/size-limits.md).
   */
  public Optional<Integer> maxMessageBytes() {
    return raw("maxMessageBytes").map(v -> intParam("maxMessageBytes", 0, 1024, Integer.MAX_VALUE));
  }

  /** {@code -DserverDelayUs}: the embedded servers' --delay-us, a service time per call in µs (a list: the shootout's). */
  /** {@code -Dprofile}: what each measured level's profiles sample, if anything (default: nothing). */
  public Optional<protocols.stats.profile.ProfileEvent> profile() {
    return raw("profile").map(protocols.stats.profile.ProfileEvent::parse);
  }

  public Optional<Integer> serverDelayUs() {
    List<Integer> delays = Trials.serverDelays(this);
    if (delays.size() > 1) {
      throw new IllegalArgumentException("-DserverDelayUs=" + raw("serverDelayUs").get() + " lists several delays: a"
          + " list is RpcShootout's, each delay a variant with its own server; give one delay here");
    }
    return delays.stream().findFirst();
  }

  /** These parameters with {@code name} set to {@code value}: one of a shootout's variants. */
  public LoadParams with(String name, String value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.put(name, value);
    return new LoadParams(m);
  }

  /** Whether -Dproviders or -Dregistry asks for more than one server called directly. */
  public boolean deployed() {
    return !Deployment.Plan.of(this).equals(Deployment.Plan.ONE_DIRECT);
  }

  /**
   * {@code -Ddiscovery}: the shootout runs each framework that has a registry directly and/or through
   * it; empty when not given (then -Dregistry decides, for every framework alike).
   */
  public List<Discovery> discovery() {
    return raw("discovery").map(Discovery::parseList).orElse(List.of());
  }

  /** {@code -Dconnections}: 0 keeps the framework's default. */
  public int connections() {
    return intParam("connections", 0, 0, 1_024);
  }

  /** A framework's own choice parameter, e.g. {@code -Dserialization=kryo}. */
  public String choice(String name, String defaultValue, List<String> allowed) {
    return ParamValues.choice(name, raw(name).orElse(defaultValue), allowed);
  }

  public int intParam(String name, int defaultValue, int min, int max) {
    return raw(name).map(v -> ParamValues.wholeNumber(name, v, min, max)).orElse(defaultValue);
  }

  /**
   * Checks the names given against the lab's parameters for {@code run}: a likely typo fails with one
   * line ({@link IllegalArgumentException}); a name the run does not take is printed once and ignored.
   */
  public LoadParams checkNames(Parameters.Run run) {
    Parameters.check(values.keySet(), run).forEach(System.out::println);
    return this;
  }

  /** Reads every shared parameter once, so a bad one fails before anything starts. */
  public LoadParams validate() {
    // The load, the client, the server's and the faults': each read once.
    levels(); rates(); maxInFlight(); ramp(); faultsInLevel(); duration(); calls(); warmup(); settle();
    modes(); target(); timeout(); syncThreads(); connections(); orderName(); maxMessageBytes();
    Trials.serverDelays(this); // one delay, or the shootout's list
    koPause(); maxKoPercent(); maxFailingSeconds(); faults();
    Deployment.Plan.of(this); LiveSettings.of(this); CpuPinning.of(this);
    if (tlsModes().stream().anyMatch(TlsMode::on) && injectors() > 1) {
      throw new IllegalArgumentException("-Dtls with -Dinjectors: the injector JVMs would need the throwaway CA; run"
          + " TLS with one injector");
    }
    discovery(); injectors(); profile();
    injector().checkStartAt(java.time.Instant.now());
    return this;
  }
}
