package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.dubbo.DubboDsl.triple;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.rpc.RpcChecks.response;

import contract.grpc.MobileService;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.UploadSummary;
import contract.grpc.WatchRequest;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import protocols.dubbo.TripleStreamRequest;
import protocols.dubbo.lab.TripleFramework;
import protocols.frameworks.Frameworks;
import protocols.grpc.GrpcDsl;
import protocols.grpc.GrpcStreamRequest;
import protocols.grpc.lab.GrpcFramework;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.RpcFramework;
import protocols.load.Populations;
import protocols.rpc.InvocationMode;
import protocols.rpc.StreamResult;

/**
 * Every kind of stream on the sample gRPC server and on Dubbo's Triple server, one after the other:
 * {@code watch} (a server stream of {@code -Dmessages} orders), {@code upload} (a client stream of as
 * many) and {@code chat} (each order echoed), {@code -Dstreams} concurrent streams each for
 * {@code -Dduration} seconds, one stream after another per user; {@code -Dframeworks=grpc,triple}.
 * One Gatling record per stream; the per-message figures are in the µs summary.
 */
public class StreamingDemo extends Simulation {
  /** A whole stream's deadline: one stream carries many messages, so not the per-call timeout. */
  static final Duration STREAM_DEADLINE = Duration.ofSeconds(30);

  /** A framework's three stream kinds, each as a request of the given name. */
  interface Streams {
    ChainBuilder watch(String name, int messages);

    /** {@code perSecond}: each stream's message rate, 0 for as fast as flow control allows. */
    ChainBuilder upload(String name, int messages, int perSecond);

    ChainBuilder chat(String name, int messages, int perSecond);
  }

  /** The frameworks with streams. */
  static final Map<RpcFramework<?, ?>, Streams> STREAMING = Map.of(
      GrpcFramework.FRAMEWORK, new Streams() {
        @Override
        public ChainBuilder watch(String name, int messages) {
          return ChainBuilder.EMPTY.exec(grpc(name).serverStream(MobileServiceGrpc.getWatchMethod())
              .deadline(STREAM_DEADLINE)
              .send(session -> WatchRequest.newBuilder().setCount(messages).build())
              .check(response(StreamResult::received).is((long) messages)));
        }

        @Override
        public ChainBuilder upload(String name, int messages, int perSecond) {
          GrpcStreamRequest<Order, UploadSummary> upload = grpc(name).clientStream(MobileServiceGrpc.getUploadMethod())
              .messages(messages);
          return ChainBuilder.EMPTY.exec((perSecond > 0 ? upload.perSecond(perSecond) : upload)
              .deadline(STREAM_DEADLINE)
              .send(session -> GrpcDsl.order(1))
              .check(response(StreamResult::sent).is((long) messages)));
        }

        @Override
        public ChainBuilder chat(String name, int messages, int perSecond) {
          GrpcStreamRequest<Order, Order> chat = grpc(name).bidiStream(MobileServiceGrpc.getChatMethod())
              .messages(messages)
              .echoed();
          return ChainBuilder.EMPTY.exec((perSecond > 0 ? chat.perSecond(perSecond) : chat)
              .deadline(STREAM_DEADLINE)
              .send(session -> GrpcDsl.order(1))
              .check(response(StreamResult::received).is((long) messages)));
        }
      },
      TripleFramework.FRAMEWORK, new Streams() {
        @Override
        public ChainBuilder watch(String name, int messages) {
          return ChainBuilder.EMPTY.exec(triple(name).service(MobileService.class).serverStream(MobileService::watch)
              .deadline(STREAM_DEADLINE)
              .send(session -> WatchRequest.newBuilder().setCount(messages).build())
              .check(response(StreamResult::received).is((long) messages)));
        }

        @Override
        public ChainBuilder upload(String name, int messages, int perSecond) {
          TripleStreamRequest<MobileService, Order, UploadSummary> upload = triple(name).service(MobileService.class)
              .clientStream(MobileService::upload).messages(messages);
          return ChainBuilder.EMPTY.exec((perSecond > 0 ? upload.perSecond(perSecond) : upload)
              .deadline(STREAM_DEADLINE)
              .send(session -> GrpcDsl.order(1))
              .check(response(StreamResult::sent).is((long) messages)));
        }

        @Override
        public ChainBuilder chat(String name, int messages, int perSecond) {
          TripleStreamRequest<MobileService, Order, Order> chat = triple(name).service(MobileService.class)
              .bidiStream(MobileService::chat).messages(messages).echoed();
          return ChainBuilder.EMPTY.exec((perSecond > 0 ? chat.perSecond(perSecond) : chat)
              .deadline(STREAM_DEADLINE)
              .send(session -> GrpcDsl.order(1))
              .check(response(StreamResult::received).is((long) messages)));
        }
      });

  private final List<EchoRun> runs = new ArrayList<>();

  {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> running = streamingFrameworks(given);
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run("StreamingDemo",
        Set.of(Parameters.Use.STREAMS), running, true)).validate().singleInjector("StreamingDemo"));
    int streams = EchoRun.orExit(() -> params.intParam("streams", 10, 1, 10_000));
    int messages = EchoRun.orExit(() -> params.intParam("messages", 1_000, 1, contract.SampleOrder.MAX_WATCH));
    int perSecond = messageRate(params);
    LabRun lab = new LabRun(params);
    List<PopulationBuilder> steps = new ArrayList<>();
    for (RpcFramework<?, ?> framework : running) {
      EchoRun run = EchoRun.start(framework, params, Parameters.TARGET_PREFIX + framework.name(), lab);
      runs.add(run);
      Streams kinds = STREAMING.get(framework);
      String name = framework.name();
      for (ChainBuilder stream : List.of(kinds.watch(name + " watch", messages),
          kinds.upload(name + " upload", messages, perSecond), kinds.chat(name + " chat", messages, perSecond))) {
        steps.add(scenario(name + " " + steps.size())
            .exec(during(params.duration()).on(stream))
            .injectOpen(atOnceUsers(streams))
            .protocols(run.protocol(InvocationMode.ASYNC), lab.protocol()));
      }
    }
    setUp(Populations.sequence(steps)).assertions(global().failedRequests().percent().lte(params.maxKoPercent()));
  }

  /** {@code -DmessageRate}: each client or bidirectional stream's messages per second; 0 (unset) unpaced. */
  static int messageRate(LoadParams params) {
    return EchoRun.orExit(() -> params.intParam("messageRate", 0, 1, 1_000_000));
  }

  /** {@code -Dframeworks}, default {@code grpc,triple}: only frameworks with streams. */
  static List<RpcFramework<?, ?>> streamingFrameworks(LoadParams given) {
    return EchoRun.orExit(() -> {
      List<RpcFramework<?, ?>> named = Frameworks.parse(given.string("frameworks", "grpc,triple"));
      named.stream().filter(f -> !STREAMING.containsKey(f)).findFirst().ifPresent(f -> {
        throw new IllegalArgumentException("-Dframeworks: " + f.name() + " has no streams; choose from grpc,triple");
      });
      return named;
    });
  }

  @Override
  public void after() {
    runs.forEach(EchoRun::stop);
  }
}
