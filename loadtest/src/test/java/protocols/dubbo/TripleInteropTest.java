package protocols.dubbo;

import protocols.lab.LoopbackPorts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.UploadSummary;
import contract.grpc.WatchRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;
import servers.dubbo.TripleEchoServer;
import servers.grpc.GrpcEchoServer;

/**
 * What Triple promises, checked both ways on loopback: grpc-java's generated client calls Dubbo's Triple
 * server (unary and the three streams), and Dubbo's Triple client calls grpc-java's server. One
 * contract, order.proto, two code generators.
 */
class TripleInteropTest {
  private static EchoServerMain.RunningServer triple;
  private static int triplePort;
  private static Server grpc;
  private static ManagedChannel channel;
  private static DubboBootstrap consumer;

  @BeforeAll
  static void start() throws Exception {
    triplePort = LoopbackPorts.next();
    Map<String, String> defaults = TripleEchoServer.defaults(triplePort);
    defaults.put("threads", "20");
    triple = TripleEchoServer.start(ServerFlags.parse(new String[0], defaults), "127.0.0.1", triplePort, java.util.Optional.empty());
    grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new GrpcEchoServer.Echo(ServiceDelay.from(ServerFlags.parse(new String[0],
            EchoServerMain.commonDefaults(0))))).build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", triplePort).usePlaintext().build();
    ApplicationConfig app = new ApplicationConfig("triple-interop-test");
    app.setQosEnable(false);
    consumer = DubboBootstrap.newInstance();
    consumer.application(app).start();
  }

  @AfterAll
  static void stop() throws Exception {
    // Whatever start() got to before it failed: a server it started is still stopped.
    if (channel != null) {
      channel.shutdownNow();
    }
    if (consumer != null) {
      consumer.destroy();
    }
    if (grpc != null) {
      grpc.shutdownNow();
    }
    if (triple != null) {
      triple.stop();
    }
  }

  private static Order order(long id) {
    return SampleOrder.make(GrpcOrder::of, id, SampleOrder.NAME);
  }

  @Test
  void theTripleServerListensOnLoopbackOnly() {
    // Bound to 0.0.0.0, the port would be taken on 127.0.0.2 too.
    assertThrows(IOException.class, () -> new ServerSocket(triplePort, 1,
        java.net.InetAddress.getByName("127.0.0.1")).close(), "the server holds 127.0.0.1");
    org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> new ServerSocket(triplePort, 1,
        java.net.InetAddress.getByName("127.0.0.2")).close(), "the server did not take the port on every address");
  }

  @Test
  void grpcJavaCallsTheTripleServerUnaryAndStreams() throws Exception {
    MobileServiceGrpc.MobileServiceBlockingStub blocking = MobileServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS);
    assertEquals(order(7), blocking.hello(order(7)));

    List<Order> watched = new ArrayList<>();
    blocking.withDeadlineAfter(10, TimeUnit.SECONDS).watch(WatchRequest.newBuilder().setCount(100).build())
        .forEachRemaining(watched::add);
    assertEquals(100, watched.size());
    assertEquals(99, watched.get(99).getOrderId());

    MobileServiceGrpc.MobileServiceStub async = MobileServiceGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    Collected<UploadSummary> summary = new Collected<>();
    StreamObserver<Order> upload = async.upload(summary);
    for (int i = 0; i < 20; i++) {
      upload.onNext(order(i));
    }
    upload.onCompleted();
    List<UploadSummary> summaries = summary.done.get(10, TimeUnit.SECONDS);
    assertEquals(1, summaries.size());
    assertEquals(20, summaries.get(0).getCount());
    assertEquals(20 * SampleOrder.AMOUNT, summaries.get(0).getAmount(), 1e-6);

    Collected<Order> echoed = new Collected<>();
    StreamObserver<Order> chat = MobileServiceGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .chat(echoed);
    List<Order> sent = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      sent.add(order(1_000 + i));
      chat.onNext(sent.get(i));
    }
    chat.onCompleted();
    assertEquals(sent, echoed.done.get(10, TimeUnit.SECONDS));
  }

  @Test
  void dubbosTripleClientCallsTheGrpcServer() throws Exception {
    contract.grpc.MobileService toGrpc = reference(grpc.getPort());
    assertEquals(order(11), toGrpc.helloAsync(order(11)).get(10, TimeUnit.SECONDS));
    assertEquals(order(12), toGrpc.hello(order(12)));
    // and the Triple server, through the same client
    assertEquals(order(13), reference(triplePort).helloAsync(order(13)).get(10, TimeUnit.SECONDS));
  }

  private static contract.grpc.MobileService reference(int port) {
    ReferenceConfig<contract.grpc.MobileService> reference =
        new ReferenceConfig<>(consumer.getApplicationModel().getDefaultModule());
    reference.setInterface(contract.grpc.MobileService.class);
    reference.setUrl("tri://" + contract.dubbo.TripleHost.exact("127.0.0.1") + ":" + port);
    reference.setTimeout(10_000);
    reference.setCheck(false);
    return reference.get();
  }

  /** A stream's messages, whole once it completes. */
  private static final class Collected<T> implements StreamObserver<T> {
    final List<T> messages = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<List<T>> done = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      messages.add(value);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(List.copyOf(messages));
    }
  }
}
