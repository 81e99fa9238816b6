package protocols.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.rpc.GatlingLoops;
import protocols.rpc.RpcSettings;

/** grpc-java's client on event loops like Gatling's, against a real gRPC server on loopback. */
class GrpcClientTest {

  /** A failed connection is final for the warm-up connect: the client does not wait its whole timeout (5 s per bad TLS case in TlsIT). */
  @Test
  void aChannelWhoseConnectionFailsDoesNotHoldTheClientForItsWholeTimeout() {
    int nobody = protocols.lab.LoopbackPorts.next(); // free: the connection is refused
    long start = System.nanoTime();
    try (GrpcClient client = new GrpcClient(RpcSettings.defaults(nobody).withTimeout(Duration.ofSeconds(20)),
        GrpcProtocol.DEFAULT_MAX_MESSAGE, null)) {
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      assertTrue(seconds < 10, "made in " + seconds + " s against a refused connection, with a 20 s timeout");
    }
  }

  @Test
  void onTheCallersLoopTheReplyCompletesOnThatLoopThroughItsOwnConnection() throws Exception {
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new MobileServiceGrpc.MobileServiceImplBase() {
          @Override
          public void hello(Order request, StreamObserver<Order> reply) {
            reply.onNext(request);
            reply.onCompleted();
          }
        }).build().start();
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(3, NioIoHandler.newFactory());
    RpcSettings settings = RpcSettings.defaults(server.getPort()).withTimeout(Duration.ofSeconds(5));
    try (GrpcClient client = new GrpcClient(settings, GrpcProtocol.DEFAULT_MAX_MESSAGE, loops)) {
      Set<String> peers = new HashSet<>();
      for (int round = 0; round < 2; round++) {
        for (EventLoop loop : GatlingLoops.of(loops)) {
          Order order = Order.newBuilder().setOrderId(round * 10L + peers.size()).setName("n").build();
          CompletableFuture<Thread> where = new CompletableFuture<>();
          CompletableFuture<Order> reply = new CompletableFuture<>();
          loop.execute(() -> client.unary(MobileServiceGrpc.getHelloMethod(), null, 0, order)
              .whenComplete((r, e) -> {
                where.complete(Thread.currentThread());
                if (e == null) {
                  reply.complete(r);
                } else {
                  reply.completeExceptionally(e);
                }
              }));
          assertEquals(order, reply.get(10, TimeUnit.SECONDS));
          assertTrue(loop.inEventLoop(where.get()), "completed on " + where.get().getName());
          peers.add(where.get().getName());
        }
      }
      assertEquals(3, peers.size(), "one connection per loop, each completing on its own loop: " + peers);
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }
}
