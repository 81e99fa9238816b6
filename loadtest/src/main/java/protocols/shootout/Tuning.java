package protocols.shootout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.Payload;
import protocols.lab.RpcFramework;
import protocols.lab.Trials;
import protocols.rpc.InvocationMode;

/**
 * RpcTuning: each framework in several configurations of its own knobs (its -D parameters, client
 * and server), each configuration a variant with its own server, measured in interleaved trials as the
 * shootout measures frameworks; then tuning.html/json/csv. One knob at a time around the base (the
 * knobs' values as given, else the frameworks' defaults), so a run's length grows with the number of
 * values, not their product; the report names each knob's best value, and the next run sweeps around
 * them when given as -D parameters.
 */
public final class Tuning extends VariantRun {

  public Tuning(String simulation) {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> frameworks = EchoRun.orExit(
        () -> Frameworks.parse(given.string("frameworks", String.join(",", Frameworks.names()))));
    LoadParams params = EchoRun.orExit(() -> Payload.one(given.checkNames(Frameworks.run(simulation,
        Set.of(Parameters.Use.SHOOTOUT, Parameters.Use.TUNING), frameworks, false)).validate()
        .singleInjector(simulation), simulation));
    EchoRun.orExit(() -> refuseOthers(params));
    InvocationMode mode = EchoRun.orExit(params::mode);
    List<Configuration> configurations = EchoRun.orExit(() -> Configuration.sweep(frameworks, params,
        params.optional("knobs")));
    Trials trials = EchoRun.orExit(() -> Trials.of(params, Trials.COMPARISON_REPEAT));
    System.out.println(plan(configurations, params, trials));
    LabRun run = new LabRun(params.with("seed", Long.toString(trials.seed())));
    Map<Configuration, EchoRun> started = new LinkedHashMap<>();
    for (Configuration c : configurations) {
      EchoRun echo = EchoRun.start(c.framework(), c.name(), c.params(params), "target", run);
      runs.add(echo);
      started.put(c, echo);
      echo.serverSettings().ifPresent(s -> System.out.println(c.name() + ": the server runs " + s));
      measure(echo, mode, trials);
    }
    sequence(params.levels(), trials);
    Map<String, String> settings = new LinkedHashMap<>();
    started.forEach((c, echo) -> echo.serverSettings().ifPresent(s -> settings.put(c.name(), s)));
    run.onSummaryWritten(new TuningReport(configurations, settings, mode, params.levels(),
        describe(params, frameworks, mode, trials), trials.seed()));
  }

  /** What a sweep does not combine with: one line each, before anything starts. */
  private static Void refuseOthers(LoadParams params) {
    for (String name : List.of("plain", "discovery", "rates", "faults", "providers", "registry", "target", "tuned")) {
      if (params.optional(name).isPresent()) {
        throw new IllegalArgumentException("-D" + name + " is not for RpcTuning: it sweeps the lab's own servers in"
            + " closed levels; leave out -D" + name);
      }
    }
    if (params.tlsModes().size() > 1) {
      throw new IllegalArgumentException("-Dtls with several modes: RpcTuning runs one; give -Dtls one mode");
    }
    if (Trials.serverDelays(params).size() > 1) {
      throw new IllegalArgumentException("-DserverDelayUs with several delays: RpcTuning runs one; give one delay");
    }
    if (params.modes().size() > 1) {
      throw new IllegalArgumentException("-Dmode=both: RpcTuning runs one mode; give -Dmode=async or -Dmode=sync");
    }
    return null;
  }

  /** The strategy and the run's length, before it starts. */
  static String plan(List<Configuration> configurations, LoadParams params, Trials trials) {
    long levelSeconds = params.calls().isPresent() ? -1 : params.duration().toSeconds();
    int measured = configurations.size() * params.levels().size() * trials.repeat();
    StringBuilder out = new StringBuilder("tuning: one knob at a time around the base (the values given as -D, else"
        + " each framework's default), each configuration its own server, " + trials.repeat()
        + " interleaved trials of each level; " + configurations.size() + " configurations:\n");
    configurations.forEach(c -> out.append("  ").append(c.name()).append(c.base() ? "  (the base)" : "")
        .append('\n'));
    out.append("tuning: ").append(measured).append(" measured levels").append(levelSeconds < 0 ? ""
        : " of " + levelSeconds + " s (at least " + (measured * levelSeconds + 59) / 60 + " min, plus warm-ups and"
        + " settling)");
    return out.toString();
  }

  private static Map<String, String> describe(LoadParams params, List<RpcFramework<?, ?>> frameworks,
                                              InvocationMode mode, Trials trials) {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("frameworks", String.join(",", frameworks.stream().map(RpcFramework::name).toList()));
    d.put("mode", mode.label());
    d.put("levels", params.levels().toString());
    d.put("trials per level", trials.repeat() + ", interleaved (-Dseed=" + trials.seed() + ")");
    d.put(params.calls().isPresent() ? "calls per client" : "duration per level (s)",
        params.calls().map(String::valueOf).orElse(Long.toString(params.duration().toSeconds())));
    d.put("warm-up", params.warmup().describe());
    d.put("timeout (ms)", Long.toString(params.timeout().toMillis()));
    d.put("connections", params.connections() == 0 ? "framework default" : Integer.toString(params.connections()));
    d.put("knobs", params.optional("knobs").orElse("all"));
    params.optional("payload").ifPresent(v -> d.put("payload (bytes of the order's name)", v));
    return d;
  }
}
