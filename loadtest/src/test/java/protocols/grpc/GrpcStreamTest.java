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
    EventLoop loop = GatlingLoops.of(loops)[0];
    CompletableFuture<StreamResult> done = new CompletableFuture<>();
    loop.execute(() -> method.callAsync(client, request).whenComplete((r, e) -> {
      if (e != null) {
        done.completeExceptionally(e);
      } else {
        done.complete(r);
      }
    }));
    return done.get(30, TimeUnit.SECONDS);
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
}
