package protocols.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.WatchRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.rpc.GatlingLoops;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.function.BiConsumer;
import protocols.rpc.RpcChecks;
import protocols.rpc.RpcMethod;
import protocols.rpc.StreamPlan;
import protocols.rpc.RpcSettings;
import protocols.rpc.StreamResult;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;
import servers.grpc.GrpcEchoServer;

/** The plugin's three stream kinds on event loops like Gatling's, against the sample echo service. */
class GrpcStreamTest {
  private static Server server;
  private static EventLoopGroup loops;
  private static GrpcClient client;
  private static final Order ORDER = SampleOrder.make(GrpcOrder::of, 7, SampleOrder.NAME);

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> defaults = EchoServerMain.commonDefaults(0);
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new GrpcEchoServer.Echo(ServiceDelay.from(ServerFlags.parse(new String[0], defaults))))
        .addService(io.grpc.protobuf.services.ProtoReflectionServiceV1.newInstance())
        .addService(shapes())
        .build().start();
    loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    client = new GrpcClient(RpcSettings.defaults(server.getPort()).withTimeout(Duration.ofSeconds(20)),
        GrpcProtocol.DEFAULT_MAX_MESSAGE, loops);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
  }

  private static <Q> StreamResult run(RpcMethod<GrpcClient, Q, StreamResult> method, Q request) throws Exception {
    return run(client, method, request);
  }

  /** The stream's error, one that must come within 10 s. */
  private static <Q> io.grpc.Status failure(GrpcClient on, RpcMethod<GrpcClient, Q, StreamResult> method, Q request)
      throws Exception {
    try {
      StreamResult r = run(on, method, request);
      throw new AssertionError("the stream ended OK: " + r);
    } catch (java.util.concurrent.ExecutionException e) {
      return io.grpc.Status.fromThrowable(e.getCause());
    }
  }

  private static <Q> StreamResult run(GrpcClient on, RpcMethod<GrpcClient, Q, StreamResult> method, Q request)
      throws Exception {
    EventLoop loop = GatlingLoops.of(loops)[0];
    CompletableFuture<StreamResult> done = new CompletableFuture<>();
    loop.execute(() -> method.callAsync(on, request).whenComplete((r, e) -> {
      if (e != null) {
        done.completeExceptionally(e);
      } else {
        done.complete(r);
      }
    }));
    return done.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aServerStreamReadsEveryMessage() throws Exception {
    StreamResult r = run(GrpcStreamRequest.of("w", MobileServiceGrpc.getWatchMethod(),
        io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING).calls(), WatchRequest.newBuilder().setCount(5_000).build());
    assertEquals(1, r.sent());
    assertEquals(5_000, r.received());
    assertTrue(r.firstMessageMicros() >= 0);
    assertEquals(4_999, r.gapsMicros().getTotalCount());
  }

  @Test
  void aClientStreamSendsThemAllAndGetsOneReply() throws Exception {
    StreamResult r = run(GrpcStreamRequest.of("u", MobileServiceGrpc.getUploadMethod(),
        io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING).messages(5_000).calls(), ORDER);
    assertEquals(5_000, r.sent());
    assertEquals(1, r.received());
  }

  @Test
  void aChatTimesEachEcho() throws Exception {
    StreamResult r = run(GrpcStreamRequest.of("c", MobileServiceGrpc.getChatMethod(),
        io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING).messages(5_000).echoed().calls(), ORDER);
    assertEquals(5_000, r.sent());
    assertEquals(5_000, r.received());
    assertEquals(5_000, r.roundTripsMicros().getTotalCount());
  }

  @Test
  void aPacedChatSendsOnScheduleAndCountsEachSendsLag() throws Exception {
    EventLoop loop = GatlingLoops.of(loops)[0];
    RpcMethod<GrpcClient, Order, StreamResult> paced = GrpcStreamRequest.of("c", MobileServiceGrpc.getChatMethod(),
        io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING).messages(200).echoed().perSecond(1_000).calls()
        .bind(io.gatling.core.session.Session$.MODULE$.apply("scn", 1L, loop));
    long start = System.nanoTime();
    StreamResult r = run(paced, ORDER);
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertEquals(200, r.received());
    assertEquals(200, r.roundTripsMicros().getTotalCount());
    assertEquals(200, r.sendLagsMicros().getTotalCount(), "each send's lag behind its due time");
    assertTrue(tookMillis >= 199, "200 messages at 1,000/s take 199 ms at least, took " + tookMillis);
  }

  private static final String JSON_ORDER = "{\"orderId\": 7, \"name\": \"Zhang San\", \"amount\": 199.99}";

  @Test
  void streamsWithoutGeneratedCodeTakeTheirSchemaFromADescriptorSetOrFromReflection() throws Exception {
    StreamResult chat = run(GrpcDsl.grpc("c").bidiStream("rpcloadlab.MobileService/Chat")
        .fromDescriptorSet("classpath:descriptor-sets/order.desc").messages(300).echoed().calls(), JSON_ORDER);
    assertEquals(300, chat.received());
    assertEquals(300, chat.roundTripsMicros().getTotalCount(), "each echo equal to the JSON order sent");
    RpcMethod<GrpcClient, String, StreamResult> upload = GrpcDsl.grpc("u").clientStream("rpcloadlab.MobileService/Upload")
        .fromReflection().messages(300).calls().prepare(client);
    assertEquals(300, run(upload, JSON_ORDER).sent());
    RpcMethod<GrpcClient, String, StreamResult> watch = GrpcDsl.grpc("w").serverStream("rpcloadlab.MobileService/Watch")
        .fromReflection().calls().prepare(client);
    assertEquals(40, run(watch, "{\"count\": 40}").received());
  }

  @Test
  void aMethodCalledAsTheWrongKindIsRefusedWithTheDslToUse() {
    String message = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> GrpcDsl.grpc("x").unary("rpcloadlab.MobileService/Chat")
            .fromDescriptorSet("classpath:descriptor-sets/order.desc")).getMessage();
    assertTrue(message.contains("is a bidirectional stream, not unary") && message.contains("bidiStream("), message);
    message = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> GrpcDsl.grpc("x").serverStream("rpcloadlab.MobileService/Hello")
            .fromDescriptorSet("classpath:descriptor-sets/order.desc")).getMessage();
    assertTrue(message.contains("is unary, not a server stream"), message);
  }

  private static GrpcStreamRequest<WatchRequest, Order> watch() {
    return GrpcStreamRequest.of("w", MobileServiceGrpc.getWatchMethod(),
        io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING);
  }

  @Test
  void aStreamThatNeverEndsEndsAtItsDeadline() throws Exception {
    io.grpc.Status s = failure(client, watch().deadline(Duration.ofMillis(300)).calls(),
        WatchRequest.newBuilder().setCount(SampleOrder.MAX_WATCH).build());
    assertEquals(io.grpc.Status.Code.DEADLINE_EXCEEDED, s.getCode(), s.toString());
    assertTrue(client.isTimeout(s.asRuntimeException()), "reported as a timeout");
  }

  @Test
  void aMessageOverTheClientsLimitFailsTheStreamWithTheLimitNamed() throws Exception {
    try (GrpcClient small = new GrpcClient(RpcSettings.defaults(server.getPort()).withTimeout(Duration.ofSeconds(20)),
        32, loops)) {
      io.grpc.Status s = failure(small, watch().calls(), WatchRequest.newBuilder().setCount(10).build());
      assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, s.getCode(), s.toString());
      String line = small.sizeLimit(s.asRuntimeException(), WatchRequest.newBuilder().setCount(10).build());
      assertTrue(line != null && line.contains("32"), "names the limit: " + line);
    }
  }

  @Test
  void aServerKilledMidStreamFailsTheStreamAtOnce() throws Exception {
    Server doomed = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new GrpcEchoServer.Echo(ServiceDelay.from(ServerFlags.parse(new String[0],
            EchoServerMain.commonDefaults(0))))).build().start();
    try (GrpcClient to = new GrpcClient(RpcSettings.defaults(doomed.getPort()).withTimeout(Duration.ofSeconds(20)),
        GrpcProtocol.DEFAULT_MAX_MESSAGE, loops)) {
      CompletableFuture<io.grpc.Status> ended = CompletableFuture.supplyAsync(() -> {
        try {
          return failure(to, watch().calls(), WatchRequest.newBuilder().setCount(SampleOrder.MAX_WATCH).build());
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(300); // the stream is flowing
      long killed = System.nanoTime();
      doomed.shutdownNow();
      io.grpc.Status s = ended.get(20, TimeUnit.SECONDS);
      long afterMillis = (System.nanoTime() - killed) / 1_000_000;
      assertTrue(s.getCode() == io.grpc.Status.Code.UNAVAILABLE || s.getCode() == io.grpc.Status.Code.CANCELLED
          || s.getCode() == io.grpc.Status.Code.INTERNAL, s.toString());
      assertTrue(afterMillis < 5_000, "the stream failed " + afterMillis + " ms after the kill, not at its deadline");
    } finally {
      doomed.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  // Chats of other shapes than one reply per message, as a user's service may answer: none (1:0), two
  // per message (1:2), one per ten (N:1). Each completes when the client half-closes.
  private static final MethodDescriptor<Order, Order> SILENT = shape("Silent");
  private static final MethodDescriptor<Order, Order> TWICE = shape("Twice");
  private static final MethodDescriptor<Order, Order> PER_TEN = shape("PerTen");

  private static MethodDescriptor<Order, Order> shape(String name) {
    return MobileServiceGrpc.getChatMethod().toBuilder().setFullMethodName("shapes.Shapes/" + name).build();
  }

  private static ServerServiceDefinition shapes() {
    return ServerServiceDefinition.builder("shapes.Shapes")
        .addMethod(SILENT, chat((order, replies) -> { }))
        .addMethod(TWICE, chat((order, replies) -> {
          replies.onNext(order);
          replies.onNext(order.toBuilder().setOrderId(order.getOrderId() + 1).build());
        }))
        .addMethod(PER_TEN, chat(new BiConsumer<>() {
          private int seen;

          @Override
          public void accept(Order order, StreamObserver<Order> replies) {
            if (++seen % 10 == 0) {
              replies.onNext(order);
            }
          }
        }))
        .build();
  }

  private static io.grpc.ServerCallHandler<Order, Order> chat(BiConsumer<Order, StreamObserver<Order>> onEach) {
    return ServerCalls.asyncBidiStreamingCall((StreamObserver<Order> replies) -> new StreamObserver<Order>() {
      @Override
      public void onNext(Order order) {
        onEach.accept(order, replies);
      }

      @Override
      public void onError(Throwable t) { }

      @Override
      public void onCompleted() {
        replies.onCompleted();
      }
    });
  }

  private static GrpcStreamRequest<Order, Order> chatOf(MethodDescriptor<Order, Order> method) {
    return GrpcStreamRequest.of("shape", method, io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING).messages(100);
  }

  /** Why the stream was a KO, as the report says it. */
  private static String koOf(RpcMethod<GrpcClient, Order, StreamResult> method) throws Exception {
    try {
      StreamResult r = run(method, ORDER);
      throw new AssertionError("the stream ended OK: " + r);
    } catch (java.util.concurrent.ExecutionException e) {
      return protocols.rpc.Errors.oneLine(protocols.rpc.Errors.unwrap(e.getCause()));
    }
  }

  private static <Q> RpcMethod<GrpcClient, Q, StreamResult> bound(RpcMethod<GrpcClient, Q, StreamResult> method) {
    return method.bind(io.gatling.core.session.Session$.MODULE$.apply("scn", 1L, GatlingLoops.of(loops)[0]));
  }

  @Test
  void chatsThatDoNotAnswerEachMessageEndOkWithTheRepliesTheirRequestExpects() throws Exception {
    StreamResult none = run(chatOf(SILENT).replies(0).calls(), ORDER);
    assertEquals(100, none.sent());
    assertEquals(0, none.received());
    StreamResult twice = run(chatOf(TWICE).replies(200).calls(), ORDER);
    assertEquals(200, twice.received());
    assertEquals(0, twice.roundTripsMicros().getTotalCount(), "no round trips where replies do not pair with messages");
    assertEquals(10, run(chatOf(PER_TEN).atLeastReplies(10).calls(), ORDER).received());
    assertEquals(10, run(chatOf(PER_TEN).anyReplies().calls(), ORDER).received());
    assertEquals(0, run(chatOf(SILENT).anyReplies().calls(), ORDER).received());
  }

  @Test
  void chatsWhoseRepliesAreNotWhatTheRequestExpectsAreKosThatSaySo() throws Exception {
    assertEquals("StreamBroken: Silent: 0 replies to 100 messages, expected one per message", koOf(chatOf(SILENT).calls()));
    assertEquals("StreamBroken: Twice: reply 101 came, expected exactly 100", koOf(chatOf(TWICE).replies(100).calls()));
    assertEquals("StreamBroken: PerTen: 10 replies to 100 messages, expected at least 11",
        koOf(chatOf(PER_TEN).atLeastReplies(11).calls()));
    assertEquals("rpcloadlab.MobileService/Chat is echoed: it gets one reply per message", org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> GrpcStreamRequest.of("c", MobileServiceGrpc.getChatMethod(),
            io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING).echoed().replies(2)).getMessage());
  }

  @Test
  void eachReplyIsCheckedAsItComesWithItsIndexAndWhatTheChecksSaveReachesTheSession() throws Exception {
    StreamResult r = run(bound(chatOf(TWICE).replies(200).checkEachReply(
        RpcChecks.response(Order::getName).is(SampleOrder.NAME),
        RpcChecks.response(Order::getOrderId).saveAs("lastId")).calls()), ORDER);
    assertEquals(200, r.received());
    assertEquals(8L, new io.gatling.javaapi.core.Session(r.session()).getLong("lastId"), "the last reply's");
    assertEquals(false, r.session().contains(StreamPlan.REPLY_INDEX), "the index is the checks' alone");
    // Twice answers each message with ids 7 and 8: the replies at odd indexes are 8s.
    assertEquals(200, run(bound(chatOf(TWICE).replies(200).checkEachReply(RpcChecks.response(Order::getOrderId)
        .is(s -> s.getLong(StreamPlan.REPLY_INDEX) % 2 == 0 ? 7L : 8L)).calls()), ORDER).received());
    assertEquals("StreamBroken: Twice: reply 1: response is 8, expected 7", koOf(bound(chatOf(TWICE).replies(200).checkEachReply(
        RpcChecks.response(Order::getOrderId).is(7L)).calls())));
    String unbound = koOf(chatOf(TWICE).checkEachReply(RpcChecks.response(Order::getName).is("x")).calls());
    assertTrue(unbound.contains("bound to a session"), unbound);
  }

  @Test
  void theDocsWatchChecksEachOrdersIdAgainstItsIndex() throws Exception { // docs/streams.md
    RpcMethod<GrpcClient, WatchRequest, StreamResult> watch = bound(watch().replies(1000)
        .checkEachReply(RpcChecks.response(Order::getOrderId).is(s -> s.getLong("replyIndex"))).calls());
    assertEquals(1000, run(watch, WatchRequest.newBuilder().setCount(1000).build()).received());
  }

  @Test
  void aReflectionDialogueAnswersEachRequestAndEachAnswerIsChecked() throws Exception {
    RpcMethod<GrpcClient, String, StreamResult> listing = GrpcDsl.grpc("reflection")
        .bidiStream("grpc.reflection.v1.ServerReflection/ServerReflectionInfo").fromReflection().messages(3)
        .checkEachReply(RpcChecks.field("listServicesResponse.service[0].name").satisfies("a service's name",
            name -> name.toString().contains(".")))
        .calls().prepare(client);
    StreamResult r = run(bound(listing), "{\"listServices\": \"\"}");
    assertEquals(3, r.received());
  }
}
