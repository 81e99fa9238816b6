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
import protocols.rpc.RpcMethod;
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
}
