package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.rpc.RpcChecks.response;

import contract.grpc.MobileServiceGrpc;
import contract.grpc.WatchRequest;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.grpc.GrpcDsl;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.RpcFramework;
import protocols.load.Populations;
import protocols.rpc.InvocationMode;
import protocols.rpc.StreamResult;

/**
 * Every kind of stream on the sample gRPC server, one after the other: {@code watch} (a server stream
 * of {@code -Dmessages} orders), {@code upload} (a client stream of as many) and {@code chat} (each
 * order echoed), {@code -Dstreams} concurrent streams each for {@code -Dduration} seconds, one stream
 * after another per user. One Gatling record per stream; the per-message figures are in the µs summary.
 */
public class StreamingDemo extends Simulation {
  private final List<EchoRun> runs = new ArrayList<>();

  {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> running = EchoRun.orExit(() -> Frameworks.parse("grpc"));
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run("StreamingDemo",
        Set.of(Parameters.Use.STREAMS), running, false)).validate().singleInjector("StreamingDemo"));
    int streams = EchoRun.orExit(() -> params.intParam("streams", 10, 1, 10_000));
    int messages = EchoRun.orExit(() -> params.intParam("messages", 1_000, 1, contract.SampleOrder.MAX_WATCH));
    LabRun lab = new LabRun(params);
    List<PopulationBuilder> steps = new ArrayList<>();
    for (RpcFramework<?, ?> framework : running) {
      EchoRun run = EchoRun.start(framework, params, Parameters.TARGET_PREFIX + framework.name(), lab);
      runs.add(run);
      for (ChainBuilder stream : grpcStreams(messages)) {
        steps.add(scenario(framework.name() + " " + steps.size())
            .exec(during(params.duration()).on(stream))
            .injectOpen(atOnceUsers(streams))
            .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol()));
      }
    }
    setUp(Populations.sequence(steps)).assertions(global().failedRequests().percent().lte(params.maxKoPercent()));
  }

  private static List<ChainBuilder> grpcStreams(int messages) {
    Duration deadline = Duration.ofSeconds(30); // a whole stream, not one message
    WatchRequest watch = WatchRequest.newBuilder().setCount(messages).build();
    return List.of(
        ChainBuilder.EMPTY.exec(grpc("grpc watch").serverStream(MobileServiceGrpc.getWatchMethod())
            .deadline(deadline)
            .send(session -> watch)
            .check(response(StreamResult::received).is((long) messages))),
        ChainBuilder.EMPTY.exec(grpc("grpc upload").clientStream(MobileServiceGrpc.getUploadMethod())
            .messages(messages)
            .deadline(deadline)
            .send(session -> GrpcDsl.order(1))
            .check(response(StreamResult::sent).is((long) messages))),
        ChainBuilder.EMPTY.exec(grpc("grpc chat").bidiStream(MobileServiceGrpc.getChatMethod())
            .messages(messages)
            .echoed()
            .deadline(deadline)
            .send(session -> GrpcDsl.order(1))
            .check(response(StreamResult::received).is((long) messages))));
  }

  @Override
  public void after() {
    runs.forEach(EchoRun::stop);
  }
}
