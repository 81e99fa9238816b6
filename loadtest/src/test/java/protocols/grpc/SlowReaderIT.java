package protocols.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.UploadSummary;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import protocols.rpc.GatlingLoops;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcSettings;
import protocols.rpc.StreamResult;

/**
 * A server that stops reading must stop the injector's sender, not grow its memory: a client stream of
 * 2,000,000 orders (about 200 MB serialised) to a server that reads none of them for 3 s. The
 * injector's heap and direct memory grow by the HTTP/2 windows at most, and what the server read
 * when it reads again is every message the stream sent.
 */
class SlowReaderIT {
  private static final Order ORDER = SampleOrder.make(GrpcOrder::of, 7, SampleOrder.NAME);
  private static final int MESSAGES = 2_000_000;
  /** Far above HTTP/2's windows (grpc-java's 1 MiB each way) and far below 2,000,000 orders. */
  private static final long BOUND_BYTES = 48L << 20;

  @Test
  void aServerThatStopsReadingStopsTheSenderAndTheInjectorsMemoryStaysBounded() throws Exception {
    CompletableFuture<Void> readAgain = new CompletableFuture<>();
    AtomicLong read = new AtomicLong();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new MobileServiceGrpc.MobileServiceImplBase() {
          @Override
          public StreamObserver<Order> upload(StreamObserver<UploadSummary> reply) {
            ServerCallStreamObserver<UploadSummary> call = (ServerCallStreamObserver<UploadSummary>) reply;
            call.disableAutoRequest(); // reads nothing until told
            readAgain.thenRun(() -> call.request(Integer.MAX_VALUE));
            return new StreamObserver<>() {
              @Override
              public void onNext(Order order) {
                read.incrementAndGet();
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {
                reply.onNext(UploadSummary.newBuilder().setCount(read.get()).build());
                reply.onCompleted();
              }
            };
          }
        }).build().start();
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    try (GrpcClient client = new GrpcClient(RpcSettings.defaults(server.getPort()).withTimeout(Duration.ofSeconds(60)),
        GrpcProtocol.DEFAULT_MAX_MESSAGE, loops)) {
      RpcMethod<GrpcClient, Order, StreamResult> upload = GrpcStreamRequest.of("upload", MobileServiceGrpc.getUploadMethod(),
          io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING).messages(MESSAGES).calls();
      long before = usedMemory();
      CompletableFuture<StreamResult> done = new CompletableFuture<>();
      GatlingLoops.of(loops)[0].execute(() -> upload.callAsync(client, ORDER).whenComplete((r, e) -> {
        if (e != null) {
          done.completeExceptionally(e);
        } else {
          done.complete(r);
        }
      }));
      long grown = 0;
      for (int i = 0; i < 6; i++) { // 3 s of a server that reads nothing
        Thread.sleep(500);
        grown = Math.max(grown, usedMemory() - before);
      }
      assertEquals(0, read.get(), "the server read nothing yet");
      assertTrue(!done.isDone(), "the stream is still sending");
      assertTrue(grown < BOUND_BYTES, "the injector's memory grew by " + (grown >> 20) + " MiB while the server read"
          + " nothing: more than HTTP/2's windows, so the sender did not wait");
      readAgain.complete(null);
      StreamResult r;
      try {
        r = done.get(120, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw new AssertionError("the stream failed once the server read again: " + Status.fromThrowable(e.getCause()), e);
      }
      assertEquals(MESSAGES, r.sent());
      assertEquals(MESSAGES, read.get(), "the server read every message sent");
      System.out.printf("slow reader: %,d orders sent to a server that read none for 3 s: injector memory +%,d KiB"
          + " at most (heap after GC and direct buffers); all %,d read once it read again%n",
          MESSAGES, grown >> 10, read.get());
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }

  /** Heap in use after a collection, plus the JDK's direct buffers (where Netty's pools live here). */
  private static long usedMemory() {
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long direct = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        direct = pool.getMemoryUsed();
      }
    }
    return heap + direct;
  }
}
