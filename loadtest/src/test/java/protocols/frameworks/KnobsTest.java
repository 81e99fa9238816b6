package protocols.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.grpc.MobileServiceGrpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.dubbo.lab.DubboFramework;
import protocols.dubbo.lab.TripleFramework;
import protocols.grpc.GrpcClient;
import protocols.grpc.lab.GrpcFramework;
import protocols.ice.IceClient;
import protocols.ice.IceProtocol;
import protocols.ice.lab.IceFramework;
import protocols.lab.EmbeddedServer;
import protocols.lab.LoadParams;
import protocols.lab.RpcFramework;
import protocols.netty.lab.NettyFramework;
import protocols.rpc.HostPort;
import protocols.rpc.InvocationMode;
import protocols.thrift.lab.ThriftFramework;

/**
 * Each framework's knobs reach the side they set: a real server started with the knobs' flags says
 * what it runs (its SETTINGS line, read back from the framework where it can: Dubbo's exported URL,
 * Ice's properties), and the client's protocol says what it calls with.
 */
class KnobsTest {

  private static String serverRuns(RpcFramework<?, ?> framework, Map<String, String> knobs) {
    try (EmbeddedServer server = EmbeddedServer.start(framework.name(), framework.serverMainClass(),
        framework.serverArgs(new LoadParams(knobs)))) {
      return server.settings().orElseThrow(() -> new AssertionError(framework.name() + ": no settings named"));
    }
  }

  @Test
  void thrift() {
    assertEquals("TThreadedSelectorServer, 2 selector threads, 200 workers, binary protocol, framed",
        serverRuns(ThriftFramework.FRAMEWORK, Map.of()), "the defaults");
    assertEquals("TThreadedSelectorServer, 4 selector threads, 200 workers, binary protocol, framed",
        serverRuns(ThriftFramework.FRAMEWORK, Map.of("thrift.selectors", "4")));
    assertEquals("THsHaServer, 1 selector thread, 8 workers, compact protocol, framed",
        serverRuns(ThriftFramework.FRAMEWORK, Map.of("thrift.server", "hsha", "thrift.serverThreads", "8",
            "thrift.protocol", "compact")));
    assertTrue(serverRuns(ThriftFramework.FRAMEWORK, Map.of("thrift.server", "nonblocking"))
        .startsWith("TNonblockingServer"));
    assertTrue(serverRuns(ThriftFramework.FRAMEWORK, Map.of("thrift.server", "threadpool"))
        .startsWith("TThreadPoolServer, a thread per connection, up to 200 workers"));

    Map<String, Object> client = ThriftFramework.FRAMEWORK.protocol(new LoadParams(Map.of("thrift.client", "loops",
        "thrift.protocol", "compact"))).describe();
    assertEquals("compact", client.get("protocol"));
    assertTrue(client.get("asyncClient").toString().startsWith("loops:"), client.toString());
    Map<String, Object> defaults = ThriftFramework.FRAMEWORK.protocol(new LoadParams(Map.of())).describe();
    assertEquals("binary", defaults.get("protocol"));
    assertTrue(defaults.get("asyncClient").toString().startsWith("manager:"), defaults.toString());
  }

  @Test
  void dubbo() {
    assertEquals("Dubbo provider, dispatcher direct, cached pool of 8 threads, serialization kryo",
        serverRuns(DubboFramework.FRAMEWORK, Map.of("dubbo.dispatcher", "direct", "dubbo.threadpool", "cached",
            "dubbo.serverThreads", "8", "serialization", "kryo")));
    assertEquals("Dubbo provider, dispatcher all, fixed pool of 200 threads, queue of 1000, serialization hessian2",
        serverRuns(DubboFramework.FRAMEWORK, Map.of("dubbo.serverQueues", "1000")));
    assertEquals("kryo", ((protocols.dubbo.DubboProtocol) DubboFramework.FRAMEWORK.protocol(
        new LoadParams(Map.of("serialization", "kryo")))).serialization(), "the consumer's serialization");

    // -Ddubbo.client=loops: no hop in async mode; callback mode's notifying references stay on Dubbo's threads.
    LoadParams loops = new LoadParams(Map.of("dubbo.client", "loops"));
    HostPort target = new HostPort("127.0.0.1", 20880);
    var async = DubboFramework.FRAMEWORK.configured(loops, target, InvocationMode.ASYNC);
    assertEquals(0, async.clientPath().asyncHops(), async.clientPath().toString());
    assertTrue(async.describe().get("consumer pool").toString().startsWith("not used"), async.describe().toString());
    var callback = DubboFramework.FRAMEWORK.configured(loops, target, InvocationMode.CALLBACK);
    assertEquals(3, callback.clientPath().asyncHops(), callback.clientPath().toString());
    assertEquals(3, DubboFramework.FRAMEWORK.configured(new LoadParams(Map.of()), target, InvocationMode.ASYNC)
        .clientPath().asyncHops(), "Dubbo's own threads by default");
  }

  @Test
  void dubbosConnectionsAreTheConsumersSockets() throws Exception {
    for (int connections : new int[] {0, 3}) { // a server each: a closed consumer's sockets may linger
      LoadParams knob = new LoadParams(Map.of("connections", Integer.toString(connections)));
      try (EmbeddedServer server = EmbeddedServer.start("dubbo", DubboFramework.FRAMEWORK.serverMainClass(),
          DubboFramework.FRAMEWORK.serverArgs(knob));
           protocols.dubbo.DubboClient client = DubboFramework.FRAMEWORK.configured(knob, server.address(),
               protocols.rpc.InvocationMode.ASYNC).newClient()) {
        var order = DubboFramework.FRAMEWORK.order(1, knob);
        assertEquals(order, DubboFramework.FRAMEWORK.echo(client).callAsync(client, order).toCompletableFuture()
            .get(10, java.util.concurrent.TimeUnit.SECONDS), "one call, so every connection is up");
        assertEquals(connections == 0 ? 1 : connections,
            protocols.lab.Sockets.toPort(ProcessHandle.current().pid(), server.address().port()),
            "-Dconnections=" + connections + ": the consumer's sockets to the provider");
      }
    }
  }

  /**
   * -Ddubbo.client=loops: a connection per loop of the group given, and a call made on a loop has its reply
   * completed on that loop (Dubbo's client on it, dispatcher=direct): no thread between them.
   */
  @Test
  void dubbosLoopsClientCallsAndCompletesOnTheCallersLoop() throws Exception {
    LoadParams knob = new LoadParams(Map.of("dubbo.client", "loops"));
    io.netty.channel.EventLoopGroup group = new io.netty.channel.MultiThreadIoEventLoopGroup(2,
        io.netty.channel.nio.NioIoHandler.newFactory());
    try (EmbeddedServer server = EmbeddedServer.start("dubbo", DubboFramework.FRAMEWORK.serverMainClass(),
        DubboFramework.FRAMEWORK.serverArgs(knob));
         protocols.dubbo.DubboClient client = DubboFramework.FRAMEWORK.configured(knob, server.address(),
             InvocationMode.ASYNC).newClient(group)) {
      var order = DubboFramework.FRAMEWORK.order(1, knob);
      var echo = DubboFramework.FRAMEWORK.echo(client);
      for (io.netty.channel.EventLoop loop : protocols.rpc.GatlingLoops.of(group)) {
        java.util.concurrent.CompletableFuture<Boolean> onLoop = new java.util.concurrent.CompletableFuture<>();
        loop.execute(() -> echo.callAsync(client, order).whenComplete((reply, error) -> {
          if (error != null || !order.equals(reply)) {
            onLoop.completeExceptionally(error != null ? error : new AssertionError("not an echo: " + reply));
          } else {
            onLoop.complete(loop.inEventLoop());
          }
        }));
        assertTrue(onLoop.get(10, TimeUnit.SECONDS), "the reply completed on the calling loop " + loop);
      }
      assertEquals(2, protocols.lab.Sockets.toPort(ProcessHandle.current().pid(), server.address().port()),
          "a connection per loop");
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** The pool Dubbo made for the consumer's replies, read from Dubbo after a call: cached by default, else fixed. */
  @Test
  void dubbosAndTriplesConsumerPoolIsTheKnobs() throws Exception {
    assertConsumerPools(DubboFramework.FRAMEWORK);
    assertConsumerPools(TripleFramework.FRAMEWORK);
  }

  private static <R> void assertConsumerPools(RpcFramework<protocols.dubbo.DubboClient, R> framework) throws Exception {
    for (int threads : new int[] {0, 2}) {
      LoadParams knob = new LoadParams(Map.of(framework.name() + ".consumerThreads", Integer.toString(threads)));
      try (EmbeddedServer server = EmbeddedServer.start(framework.name(), framework.serverMainClass(),
          framework.serverArgs(knob));
           protocols.dubbo.DubboClient client = framework.configured(knob, server.address(), InvocationMode.ASYNC)
               .newClient()) {
        R order = framework.order(1, knob);
        assertEquals(order, framework.echo(client).callAsync(client, order).toCompletableFuture()
            .get(10, TimeUnit.SECONDS), "one call, so the consumer's pool is made");
        String pool = client.consumerPool().orElseThrow();
        assertTrue(threads == 0 ? pool.startsWith("cached, up to ") : pool.equals("fixed, 2 threads"),
            framework.name() + ".consumerThreads=" + threads + ": " + pool);
      }
    }
  }

  @Test
  void triple() {
    assertEquals("Dubbo Triple provider, fixed pool of 8 threads, HTTP/2 initial window 8388608 bytes",
        serverRuns(TripleFramework.FRAMEWORK, Map.of("triple.serverThreads", "8")));
    assertEquals("Dubbo Triple provider, fixed pool of 200 threads, HTTP/2 initial window 65535 bytes",
        serverRuns(TripleFramework.FRAMEWORK, Map.of("triple.flowWindow", "65535")));
    assertEquals("Dubbo Triple provider, fixed pool of 2 threads, queue of 1000, HTTP/2 initial window 8388608 bytes",
        serverRuns(TripleFramework.FRAMEWORK, Map.of("triple.serverThreads", "2", "triple.serverQueues", "1000")));
  }

  @Test
  void grpc() {
    assertEquals("NettyServerBuilder on NIO, direct executor (the service on the transport's event loop),"
        + " flow-control window 65535 bytes, replies gzip-compressed", serverRuns(GrpcFramework.FRAMEWORK,
        Map.of("grpc.serverThreads", "0", "grpc.flowWindow", "65535", "grpc.transport", "nio", "grpc.compression", "gzip")));
    String defaults = serverRuns(GrpcFramework.FRAMEWORK, Map.of());
    assertTrue(defaults.matches("NettyServerBuilder on (epoll|NIO), a fixed pool of 200 service threads, flow-control"
        + " window 1048576 bytes, replies uncompressed"), defaults);
    Map<String, Object> client = GrpcFramework.FRAMEWORK.protocol(new LoadParams(Map.of("grpc.flowWindow", "65535")))
        .describe();
    assertEquals(65535, client.get("flowControlWindow"), "the channels' window: " + client);
    assertEquals("on (grpc-java's default)", client.get("retry"), "retry as shipped: " + client);
    assertEquals("off", GrpcFramework.FRAMEWORK.protocol(new LoadParams(Map.of("grpc.retry", "off"))).describe()
        .get("retry"), "-Dgrpc.retry=off");
    if (io.grpc.netty.shaded.io.netty.channel.epoll.Epoll.isAvailable()) { // Linux x86_64 and arm64
      assertTrue(defaults.startsWith("NettyServerBuilder on epoll"), "auto is grpc-netty's choice: " + defaults);
      assertTrue(serverRuns(GrpcFramework.FRAMEWORK, Map.of("grpc.transport", "epoll")).startsWith(
          "NettyServerBuilder on epoll"));
    }
  }

  /** A gRPC server of the test's own reads each request's grpc-encoding header, as the client sent it. */
  @Test
  void grpcsCompressionIsTheRequestsEncodingOnTheWire() throws Exception {
    List<String> encodings = new CopyOnWriteArrayList<>();
    Metadata.Key<String> encoding = Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER);
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(new MobileServiceGrpc.MobileServiceImplBase() {
          @Override
          public void hello(contract.grpc.Order order, StreamObserver<contract.grpc.Order> reply) {
            reply.onNext(order);
            reply.onCompleted();
          }
        }, new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                                     ServerCallHandler<Q, R> next) {
            encodings.add(String.valueOf(headers.get(encoding)));
            return next.startCall(call, headers);
          }
        })).build().start();
    try {
      for (String compression : List.of("none", "gzip")) {
        LoadParams knob = new LoadParams(Map.of("grpc.compression", compression));
        try (GrpcClient client = GrpcFramework.FRAMEWORK.configured(knob,
            new HostPort("127.0.0.1", server.getPort()), InvocationMode.ASYNC).newClient()) {
          var order = GrpcFramework.FRAMEWORK.order(1, knob);
          assertEquals(order, GrpcFramework.FRAMEWORK.echo(client).callAsync(client, order).toCompletableFuture()
              .get(10, TimeUnit.SECONDS), "-Dgrpc.compression=" + compression + ": the echo");
        }
      }
      assertEquals(List.of("null", "gzip"), encodings, "the requests' grpc-encoding, none then gzip");
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void ice() {
    assertTrue(serverRuns(IceFramework.FRAMEWORK, Map.of("ice.serverThreads", "4"))
        .contains("server thread pool of 4 threads"));
    try (IceClient client = ((IceProtocol) IceFramework.FRAMEWORK.protocol(new LoadParams(
        Map.of("ice.clientThreads", "3")))).newClient()) {
      assertEquals("3", client.communicatorProperty("Ice.ThreadPool.Client.Size"), "started with 3 threads");
    }
    try (IceClient client = ((IceProtocol) IceFramework.FRAMEWORK.protocol(new LoadParams(Map.of()))).newClient()) {
      assertEquals(Integer.toString(Runtime.getRuntime().availableProcessors()),
          client.communicatorProperty("Ice.ThreadPool.Client.Size"), "one per core");
      assertEquals("60", client.communicatorProperty("Ice.ACM.Client.Timeout"), "Ice's own ACM timeout");
    }
    try (IceClient client = ((IceProtocol) IceFramework.FRAMEWORK.protocol(new LoadParams(
        Map.of("ice.acmTimeout", "0")))).newClient()) {
      assertEquals("0", client.communicatorProperty("Ice.ACM.Client.Timeout"), "ACM off");
    }
  }

  @Test
  void netty() {
    assertEquals("Netty NIO, 1 I/O thread (the echo on them), flush consolidation on",
        serverRuns(NettyFramework.FRAMEWORK, Map.of("netty.serverThreads", "1", "netty.flushConsolidation", "on")));
    if (io.netty.channel.epoll.Epoll.isAvailable()) {
      assertEquals("Netty epoll, 2 I/O threads (the echo on them), flush consolidation off",
          serverRuns(NettyFramework.FRAMEWORK, Map.of("netty.serverThreads", "2", "netty.transport", "epoll")));
    }
  }

  @Test
  void aBadValueIsOneLineBeforeAnythingStarts() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ThriftFramework.FRAMEWORK.serverArgs(new LoadParams(Map.of("thrift.selectors", "0"))));
    assertTrue(e.getMessage().contains("-Dthrift.selectors") && !e.getMessage().contains("\n"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ThriftFramework.FRAMEWORK.serverArgs(new LoadParams(Map.of("thrift.server", "tpc"))));
    assertTrue(e.getMessage().contains("threaded-selector") && e.getMessage().contains("tpc"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> DubboFramework.FRAMEWORK.serverArgs(new LoadParams(Map.of("dubbo.dispatcher", "fast"))));
    assertTrue(e.getMessage().startsWith("-Ddubbo.dispatcher must be one of"), e.getMessage());
  }
}
