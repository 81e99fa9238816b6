package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.RpcFramework;
import protocols.load.Populations;
import protocols.load.Warmup;
import protocols.stats.Level;
import protocols.rpc.InvocationMode;

/**
 * The streaming shootout: {@code chat} streams (each order echoed, each round trip timed) at
 * {@code -Dstreams=1,10,100,1000} concurrent streams, each level for {@code -Dduration} seconds, every
 * framework with streams in turn ({@code -Dframeworks=grpc,triple}), each stream {@code -Dmessages}
 * orders (default 100), sent as fast as the window allows or at {@code -DmessageRate} per stream (round
 * trips then count from each message's due time). Requests are named {@code <framework> chat <n> streams}
 * (and {@code at <r> msg/s}): the µs summary's Streams table puts their messages/s and round-trip
 * percentiles side by side. Before each framework's levels, a warm-up of chats ({@code -Dwarmup}, default
 * auto: until the streams completed per second are steady).
 */
public class StreamShootout extends Simulation {
  private final List<EchoRun> runs = new ArrayList<>();

  {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> running = StreamingDemo.streamingFrameworks(given);
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run("StreamShootout",
        Set.of(Parameters.Use.STREAMS), running, true)).validate().singleInjector("StreamShootout"));
    List<Integer> levels = EchoRun.orExit(() -> params.levelList("streams", "1,10,100,1000", 10_000, "stream"));
    int messages = EchoRun.orExit(() -> params.intParam("messages", 100, 1, 1_000_000));
    int perSecond = StreamingDemo.messageRate(params);
    LabRun lab = new LabRun(params);
    List<PopulationBuilder> steps = new ArrayList<>();
    for (RpcFramework<?, ?> framework : running) {
      EchoRun run = EchoRun.start(framework, params, Parameters.TARGET_PREFIX + framework.name(), lab);
      runs.add(run);
      Warmup.Plan warmup = params.warmup();
      if (!warmup.skipped()) {
        // As many chats as the largest level, at most 100: the JIT and the connections warm before level one.
        int users = Math.min(100, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
        String name = lab.describe(Level.warmup(framework.name(), InvocationMode.ASYNC));
        steps.add(scenario(name)
            .exec(lab.add(Warmup.of(name, warmup)).loop(
                StreamingDemo.STREAMING.get(framework).chat(name, messages, perSecond),
                () -> !lab.watch().failingFor(params.maxFailingSeconds())))
            .injectOpen(atOnceUsers(users))
            .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol()));
      }
      for (int streams : levels) {
        String name = framework.name() + " chat " + streams + (streams == 1 ? " stream" : " streams")
            + (perSecond > 0 ? " at " + perSecond + " msg/s" : "");
        steps.add(scenario(name)
            .exec(during(params.duration()).on(StreamingDemo.STREAMING.get(framework).chat(name, messages, perSecond)))
            .injectOpen(atOnceUsers(streams))
            .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol()));
      }
    }
    setUp(Populations.sequence(steps)).assertions(global().failedRequests().percent().lte(params.maxKoPercent()));
  }

  @Override
  public void after() {
    runs.forEach(EchoRun::stop);
  }
}
