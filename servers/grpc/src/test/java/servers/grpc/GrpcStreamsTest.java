package servers.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.UploadSummary;
import contract.grpc.WatchRequest;
import io.grpc.ForwardingServerCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;

/** The echo service's three streams, over a real Netty transport on loopback, and their flow control. */
class GrpcStreamsTest {
  /** Messages the service handed to gRPC: what a slow reader would otherwise make the server buffer. */
  private static final AtomicLong SENT = new AtomicLong();
  private static Server server;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> defaults = EchoServerMain.commonDefaults(0);
    ServerInterceptor counting = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                         ServerCallHandler<Q, R> next) {
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendMessage(R message) {
            SENT.incrementAndGet();
            super.sendMessage(message);
          }
        }, headers);
      }
    };
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(new GrpcEchoServer.Echo(
            ServiceDelay.from(ServerFlags.parse(new String[0], defaults))), counting))
        .build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private static Order order(long id) {
    return SampleOrder.make(GrpcOrder::of, id, SampleOrder.NAME);
  }

  @Test
  void watchSendsCountOrdersInOrder() {
    Iterator<Order> it = MobileServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .watch(WatchRequest.newBuilder().setCount(1_000).build());
    long expected = 0;
    while (it.hasNext()) {
      assertEquals(order(expected++), it.next());
    }
    assertEquals(1_000, expected);
  }

  @Test
  void uploadCountsAndSumsWhatCame() throws Exception {
    CompletableFuture<UploadSummary> summary = new CompletableFuture<>();
    StreamObserver<Order> in = MobileServiceGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .upload(observer(summary, new ArrayList<>()));
    for (int i = 0; i < 500; i++) {
      in.onNext(order(i));
    }
    in.onCompleted();
    UploadSummary s = summary.get(10, TimeUnit.SECONDS);
    assertEquals(500, s.getCount());
    assertEquals(500 * SampleOrder.AMOUNT, s.getAmount(), 1e-6);
  }

  @Test
  void chatEchoesEachOrderAsItArrives() throws Exception {
    CompletableFuture<UploadSummary> done = new CompletableFuture<>();
    List<Order> got = new ArrayList<>();
    StreamObserver<Order> in = MobileServiceGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .chat(observer(done, got));
    List<Order> sent = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      sent.add(order(i));
      in.onNext(sent.get(i));
    }
    in.onCompleted();
    done.get(10, TimeUnit.SECONDS);
    synchronized (got) {
      assertEquals(sent, got);
    }
  }

  @Test
  void aReaderThatStopsReadingHoldsTheServerBack() throws Exception {
    // Five million orders asked for, ten read.
    long before = SENT.get();
    CompletableFuture<ClientCallStreamObserver<WatchRequest>> started = new CompletableFuture<>();
    MobileServiceGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS).watch(
        WatchRequest.newBuilder().setCount(5_000_000).build(), reading(10, started));
    ClientCallStreamObserver<WatchRequest> call = started.get(5, TimeUnit.SECONDS);
    // Once the client's HTTP/2 window (1 MiB, grpc-java's default) is full the server stops: what it
    // handed gRPC stays where it is, where a server that ignored isReady() would go on to 5,000,000.
    long full = settled(before);
    Thread.sleep(1_000);
    long later = SENT.get() - before;
    call.cancel("the test is done", null);
    assertTrue(full > 10 && later == full && later < 200_000, "the server handed gRPC " + full + ", then "
        + later + " of 5,000,000 orders to a reader that read 10");
  }

  @Test
  void aChatClientThatSendsButDoesNotReadHoldsTheServerBack() throws Exception {
    // 100,000 orders sent, none read: the server asks for the next only while its replies go out.
    long before = SENT.get();
    CompletableFuture<ClientCallStreamObserver<Order>> started = new CompletableFuture<>();
    StreamObserver<Order> in = MobileServiceGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS).chat(reading(0, started));
    for (int i = 0; i < 100_000; i++) {
      in.onNext(order(i)); // buffered by the client's transport once the server stops asking
    }
    long full = settled(before);
    Thread.sleep(1_000);
    long later = SENT.get() - before;
    started.get(5, TimeUnit.SECONDS).cancel("the test is done", null);
    // Here 3,203 to 15,232 with the server's manual flow control (it depends on when the windows fill); with
    // gRPC's automatic requests it echoes all 100,000 into its buffers.
    assertTrue(full > 0 && later == full && later < 50_000, "the server echoed " + full + ", then " + later
        + " of 100,000 orders to a client that read none");
  }

  /** A caller that reads {@code messages} replies and no more. */
  private static <Q> ClientResponseObserver<Q, Order> reading(int messages,
      CompletableFuture<ClientCallStreamObserver<Q>> started) {
    return new ClientResponseObserver<>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<Q> call) {
        call.disableAutoRequestWithInitial(messages);
        started.complete(call);
      }

      @Override
      public void onNext(Order value) {
      }

      @Override
      public void onError(Throwable t) {
      }

      @Override
      public void onCompleted() {
      }
    };
  }

  /** What the server has sent since {@code before} once it stopped moving for a second (at most 20 s). */
  private static long settled(long before) throws InterruptedException {
    long last = -1;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      Thread.sleep(1_000);
      long now = SENT.get() - before;
      if (now == last) {
        return now;
      }
      last = now;
    }
    return last;
  }

  private static <T> StreamObserver<T> observer(CompletableFuture<UploadSummary> done, List<T> into) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        if (value instanceof UploadSummary s) {
          done.complete(s);
        } else {
          synchronized (into) {
            into.add(value);
          }
        }
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(UploadSummary.getDefaultInstance());
      }
    };
  }
}
