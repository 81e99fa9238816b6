package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.RpcFramework;
import protocols.lab.Trials;
import protocols.load.Populations;
import protocols.load.Warmup;
import protocols.stats.Level;
import protocols.stats.StreamLevel;
import protocols.rpc.InvocationMode;

/**
 * The streaming shootout: {@code chat} streams (each order echoed, each round trip timed) at
 * {@code -Dstreams=1,10,100,1000} concurrent streams, each level for {@code -Dduration} seconds, every
 * framework with streams in turn ({@code -Dframeworks=grpc,triple}), each stream {@code -Dmessages}
 * orders (default 100), sent as fast as the window allows or at {@code -DmessageRate} per stream (round
 * trips then count from each message's due time). Requests are named from their {@link StreamLevel}
 * ({@code grpc chat 10 streams at 500 msg/s trial 2}): the µs summary's Streams table puts their messages/s
 * and round-trip percentiles side by side. Before each framework's levels, a warm-up of chats ({@code
 * -Dwarmup}, default auto: until the streams completed per second are steady). With {@code -Drepeat=N}
 * (default 3) every warm-up first, then each level in N rounds of every framework in a shuffled order
 * ({@code -Dseed}), and the summary's stream trials give medians, intervals and verdicts.
 */
public class StreamShootout extends Simulation {
  private final Map<RpcFramework<?, ?>, EchoRun> started = new LinkedHashMap<>();

  {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> running = StreamingDemo.streamingFrameworks(given);
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run("StreamShootout",
        Set.of(Parameters.Use.STREAMS, Parameters.Use.STREAM_SHOOTOUT), running, true)).validate().singleInjector("StreamShootout"));
    List<Integer> levels = EchoRun.orExit(() -> params.levelList("streams", "1,10,100,1000", 10_000, "stream"));
    int messages = EchoRun.orExit(() -> params.intParam("messages", 100, 1, 1_000_000));
    int perSecond = StreamingDemo.messageRate(params);
    Trials trials = EchoRun.orExit(() -> Trials.of(params, Trials.COMPARISON_REPEAT));
    // The seed in the run's settings (rpc-summary.json), also when it came from the clock: the order can be run again.
    LabRun lab = new LabRun(trials.repeated() ? params.with("seed", Long.toString(trials.seed())) : params);
    Map<RpcFramework<?, ?>, List<PopulationBuilder>> warmupOf = new LinkedHashMap<>();
    for (RpcFramework<?, ?> framework : running) {
      EchoRun run = EchoRun.start(framework, params, Parameters.TARGET_PREFIX + framework.name(), lab);
      started.put(framework, run);
      Warmup.Plan warmup = params.warmup();
      List<PopulationBuilder> own = new ArrayList<>();
      if (!warmup.skipped()) {
        // As many chats as the largest level, at most 100: the JIT and the connections warm before level one.
        int users = Math.min(100, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
        String name = lab.describe(Level.warmup(framework.name(), InvocationMode.ASYNC));
        own.add(scenario(name)
            .exec(lab.add(Warmup.of(name, warmup)).loop(
                StreamingDemo.STREAMING.get(framework).chat(name, messages, perSecond),
                () -> !lab.watch().failingFor(params.maxFailingSeconds())))
            .injectOpen(atOnceUsers(users))
            .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol()));
      }
      warmupOf.put(framework, own);
    }
    List<PopulationBuilder> steps = new ArrayList<>();
    if (trials.repeated()) {
      // Every framework's warm-up, then level by level the rounds, each measuring every framework once in its shuffled order.
      warmupOf.values().forEach(steps::addAll);
      for (int i = 0; i < levels.size(); i++) {
        List<List<RpcFramework<?, ?>>> rounds = trials.rounds(running, i);
        for (int round = 0; round < rounds.size(); round++) {
          for (RpcFramework<?, ?> framework : rounds.get(round)) {
            steps.add(level(lab, started.get(framework), StreamLevel.chat(framework.name(), levels.get(i), perSecond)
                .trial(round + 1), messages, params));
          }
        }
      }
      System.out.println("trials: " + trials.repeat() + " of each level, in rounds of every framework shuffled with"
          + " -Dseed=" + trials.seed() + " (the same seed runs the same order)");
    } else {
      for (RpcFramework<?, ?> framework : running) {
        steps.addAll(warmupOf.get(framework));
        for (int streams : levels) {
          steps.add(level(lab, started.get(framework), StreamLevel.chat(framework.name(), streams, perSecond), messages,
              params));
        }
      }
    }
    setUp(Populations.sequence(steps)).assertions(global().failedRequests().percent().lte(params.maxKoPercent()));
  }

  /** One level's streams: {@code level.streams()} users, each chatting stream after stream for the level's duration. */
  private static PopulationBuilder level(LabRun lab, EchoRun run, StreamLevel level, int messages, LoadParams params) {
    String name = lab.streams().describe(level);
    RpcFramework<?, ?> framework = run.framework();
    return scenario(name)
        .exec(during(params.duration()).on(StreamingDemo.STREAMING.get(framework).chat(name, messages,
            level.perSecond())))
        .injectOpen(atOnceUsers(level.streams()))
        .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol());
  }

  @Override
  public void after() {
    started.values().forEach(EchoRun::stop);
  }
}
