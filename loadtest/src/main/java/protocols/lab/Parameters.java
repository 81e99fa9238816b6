package protocols.lab;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import protocols.stats.CpuSampler;
import protocols.rpc.RpcSettings;
import protocols.load.Warmup;

/**
 * Every -D parameter of the lab, with its default and the runs that take it: the one list the
 * reference page is checked against, and the check of the names a run is given. A name close to one
 * of these (a typo: {@code -Dlevles}) ends the run before it starts; one the run does not take, or
 * one the lab does not know, gets one line and is ignored.
 */
public final class Parameters {
  /** Who takes a parameter. */
  public enum Use {
    /** The one-framework echo simulations: DubboEcho, ThriftEcho, GrpcEcho, IceEcho, NettyEcho. */
    ECHO("the echo simulations"),
    /** RpcShootout, and RpcNightly, which is the shootout plus gates. */
    SHOOTOUT("RpcShootout and RpcNightly"),
    NIGHTLY("RpcNightly"),
    DEMO("OwnServiceDemo"),
    STREAMS("StreamingDemo and StreamShootout"),
    STREAM_SHOOTOUT("StreamShootout"),
    /** RpcTuning: the shootout's load, each framework in several configurations. */
    TUNING("RpcTuning"),
    MERGE("the merge command");

    private final String label;

    Use(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One parameter: its name, its default as the reference page gives it, who takes it. */
  public record Param(String name, String defaultValue, Set<Use> uses) {
  }

  private static final Set<Use> RUNS = EnumSet.of(Use.ECHO, Use.SHOOTOUT);
  private static final Set<Use> CLIENTS = EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.DEMO, Use.STREAMS);

  /** Every parameter but the frameworks' own, which their descriptors declare. */
  public static final List<Param> ALL = List.of(
      new Param("simulation", "none", EnumSet.allOf(Use.class)),
      new Param("levels", LoadParams.DEFAULT_LEVELS, RUNS),
      new Param("rates", "unset", RUNS),
      new Param("maxInFlight", Integer.toString(LoadParams.DEFAULT_MAX_IN_FLIGHT), RUNS),
      new Param("rateStart", Integer.toString(LoadParams.DEFAULT_RATE_START), RUNS),
      new Param("autoLevels", Integer.toString(LoadParams.DEFAULT_AUTO_LEVELS), RUNS),
      new Param("ramp", "0", RUNS),
      new Param("duration", Integer.toString(LoadParams.DEFAULT_DURATION_SECONDS), CLIENTS),
      new Param("calls", "unset", RUNS),
      new Param("warmup", LoadParams.DEFAULT_WARMUP, EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAMS)),
      new Param("warmupMax", Integer.toString(Warmup.DEFAULT_MAX_SECONDS), EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAMS)),
      new Param("settle", "auto", RUNS),
      new Param("mode", "async", CLIENTS),
      new Param("syncThreads", Integer.toString(RpcSettings.DEFAULT_SYNC_THREADS), CLIENTS),
      new Param("timeout", Long.toString(RpcSettings.DEFAULT_TIMEOUT.toMillis()), CLIENTS),
      new Param("maxKoPercent", "1", CLIENTS),
      new Param("maxFailingSeconds", "10", RUNS),
      new Param("koPauseMillis", Long.toString(RpcSettings.DEFAULT_KO_PAUSE.toMillis()), CLIENTS),
      new Param("faults", "unset", RUNS),
      new Param("faultsInLevel", "false", RUNS),
      new Param("connections", "0", CLIENTS),
      new Param("target", "unset", EnumSet.of(Use.ECHO)),
      new Param("providers", "1", RUNS),
      new Param("registry", "none", RUNS),
      new Param("orderNameChars", "unset", RUNS),
      new Param("maxMessageBytes", "unset", CLIENTS),
      new Param("serverDelayUs", "unset", CLIENTS),
      new Param("repeat", "1; RpcShootout and StreamShootout: 3", EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAM_SHOOTOUT)),
      new Param("seed", "from the clock", EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAM_SHOOTOUT)),
      new Param("profile", "false", EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAMS)),
      new Param("cpus", "false", EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.NIGHTLY, Use.DEMO, Use.STREAMS)),
      new Param(ProfilerAgent.LIBRARY_PARAM, "the one in the async-profiler jar", EnumSet.of(Use.ECHO, Use.SHOOTOUT, Use.STREAMS)),
      new Param(DeclaredServers.PARAM, "unset", CLIENTS),
      new Param("metrics.port", "unset", CLIENTS),
      new Param("metrics.host", LiveSettings.DEFAULT_HOST, CLIENTS),
      new Param("metrics.serverPort", "unset", RUNS),
      new Param("metrics.linger", Integer.toString(LiveSettings.DEFAULT_LINGER_SECONDS), CLIENTS),
      new Param("live", "1 (0 when CI is set)", CLIENTS),
      new Param("tls", "false", RUNS),
      new Param("tls.provider", "default", RUNS),
      new Param("tls.ca", "the JDK's CAs", EnumSet.of(Use.ECHO)),
      new Param("tls.cert", "unset", EnumSet.of(Use.ECHO)),
      new Param("tls.key", "unset", EnumSet.of(Use.ECHO)),
      new Param("tls.keyStore", "unset", EnumSet.of(Use.ECHO)),
      new Param("tls.password", "unset", EnumSet.of(Use.ECHO)),
      new Param("tls.serverName", "the host called", EnumSet.of(Use.ECHO)),
      new Param("frameworks", "all", EnumSet.of(Use.SHOOTOUT, Use.DEMO, Use.STREAMS)),
      new Param("plain", "false", EnumSet.of(Use.SHOOTOUT)),
      new Param("knobs", "every knob of the frameworks run", EnumSet.of(Use.TUNING)),
      new Param("tuned", "unset", EnumSet.of(Use.SHOOTOUT)),
      new Param("payload", "unset", EnumSet.of(Use.SHOOTOUT, Use.ECHO, Use.TUNING)),
      new Param("discovery", "unset", EnumSet.of(Use.SHOOTOUT)),
      new Param("history", "nightly-history.jsonl", EnumSet.of(Use.NIGHTLY)),
      new Param("historyNights", "7", EnumSet.of(Use.NIGHTLY)),
      new Param("minNights", "2", EnumSet.of(Use.NIGHTLY)),
      new Param("throughputMarginPercent", "10", EnumSet.of(Use.NIGHTLY)),
      new Param("p99MarginPercent", "25", EnumSet.of(Use.NIGHTLY)),
      new Param("failOnWarnings", "false", EnumSet.of(Use.NIGHTLY)),
      new Param("gates", "nightly-gates.json", EnumSet.of(Use.NIGHTLY)),
      new Param("users", "5", EnumSet.of(Use.DEMO)),
      new Param("listCount", "10", EnumSet.of(Use.DEMO)),
      new Param("streams", "10", EnumSet.of(Use.STREAMS)),
      new Param("messages", "1000", EnumSet.of(Use.STREAMS)),
      new Param("messageRate", "unset", EnumSet.of(Use.STREAMS)),
      new Param("injectors", "1", EnumSet.of(Use.ECHO, Use.MERGE)),
      new Param("injector", "unset", EnumSet.of(Use.ECHO)),
      new Param("startAt", "unset", EnumSet.of(Use.ECHO)),
      new Param("startDelay", "20 + the warm-up's bound", EnumSet.of(Use.ECHO)),
      new Param("runs", "none", EnumSet.of(Use.MERGE)),
      new Param("out", "merged-<time>", EnumSet.of(Use.MERGE)),
      new Param("waitSeconds", "0", EnumSet.of(Use.MERGE)));

  /** {@code -Dtarget.<framework>}: a running server for one framework of the shootout or the demo. */
  public static final String TARGET_PREFIX = "target.";
  /** Dotted names the lab owns (the frameworks' own, {@code target.<framework>}); other dotted names are the JVM's, Maven's or Gatling's. */
  private static final List<String> OWN_PREFIXES = List.of(TARGET_PREFIX, "thrift.", "dubbo.", "grpc.", "ice.",
      "netty.", "metrics.", "tls.");
  /** Names set by the lab for its own JVMs. */
  private static final Set<String> INTERNAL = Set.of("plain.framework", "plain.out", CpuSampler.PEERS_OF);

  private Parameters() {}

  /**
   * What a run takes besides {@link #ALL}: the frameworks' own parameters, those of the frameworks it
   * runs ({@code used}) among all of the lab's ({@code all}), and the framework names, for
   * {@code -Dtarget.<framework>} (taken by runs of several frameworks: {@code targetPerFramework}).
   */
  public record Run(String simulation, Set<Use> uses, Set<String> used, Set<String> all, Set<String> frameworks,
                    boolean targetPerFramework) {
  }

  /**
   * Checks the names of {@code given} for {@code run}: returns one line per name that is ignored.
   *
   * @throws IllegalArgumentException for a name that looks like a typo of a parameter
   */
  public static List<String> check(Collection<String> given, Run run) {
    Set<String> known = new TreeSet<>();
    ALL.forEach(p -> known.add(p.name()));
    known.addAll(run.all());
    run.frameworks().forEach(f -> known.add(TARGET_PREFIX + f));
    List<String> ignored = new ArrayList<>();
    for (String name : new TreeSet<>(given)) {
      if (INTERNAL.contains(name) || name.contains(".") && OWN_PREFIXES.stream().noneMatch(name::startsWith)) {
        continue; // the lab's own JVMs', or the JVM's, Maven's or Gatling's
      }
      Optional<Param> param = ALL.stream().filter(p -> p.name().equals(name)).findFirst();
      boolean target = name.startsWith(TARGET_PREFIX) && run.frameworks().contains(name.substring(TARGET_PREFIX.length()));
      if (param.isPresent() && param.get().uses().stream().noneMatch(run.uses()::contains)) {
        ignored.add("-D" + name + " is not a parameter of " + run.simulation() + " (it is one of "
            + String.join(", ", param.get().uses().stream().map(Use::label).toList()) + "): ignored");
      } else if (param.isEmpty() && run.all().contains(name) && !run.used().contains(name)
          || target && !run.targetPerFramework()) { // a lab parameter that is also a knob stays the lab's
        ignored.add("-D" + name + " is not a parameter of " + run.simulation() + ": ignored");
      } else if (param.isEmpty() && !run.used().contains(name) && !target) {
        Optional<String> near = known.stream().filter(k -> likelyTypo(name, k)).findFirst();
        if (near.isPresent()) {
          throw new IllegalArgumentException("-D" + name + " is not a parameter of this lab: did you mean -D"
              + near.get() + "?");
        }
        ignored.add("-D" + name + " is not a parameter of this lab (docs/parameters.md): ignored");
      }
    }
    return ignored;
  }

  /** A name one or two edits from a parameter's (one for short names), or the same but for case. */
  static boolean likelyTypo(String name, String parameter) {
    if (name.equalsIgnoreCase(parameter)) {
      return true;
    }
    if (name.length() < 4 || parameter.length() < 4) {
      return false;
    }
    int allowed = Math.min(name.length(), parameter.length()) <= 5 ? 1 : 2;
    return distance(name.toLowerCase(Locale.ROOT), parameter.toLowerCase(Locale.ROOT)) <= allowed;
  }

  /** Edits (insert, delete, substitute, swap two neighbours) from {@code a} to {@code b}. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
