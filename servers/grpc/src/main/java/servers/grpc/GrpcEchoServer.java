package servers.grpc;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.ListRequest;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import contract.grpc.OrderList;
import contract.grpc.UploadSummary;
import contract.grpc.WatchRequest;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.Server;
import contract.tls.TlsFiles;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.util.Optional;
import javax.net.ssl.SSLException;
import servers.common.ServerTls;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;

/**
 * grpc-java echo server on the Netty transport.
 *
 * <pre>java servers.grpc.GrpcEchoServer [--host 127.0.0.1] [--port 50051] [--threads 200]
 *     [--max-message 1048576] [--flow-window 1048576] [--transport auto|epoll|nio] [--compression none|gzip]</pre>
 *
 * {@code --threads 0} runs the service on the transport's event loop (gRPC's direct executor);
 * {@code --transport auto} is grpc-netty's own choice: Linux's epoll where its native library loads, else NIO;
 * {@code --compression gzip} compresses every reply (requests are read in whatever encoding they came).
 */
public final class GrpcEchoServer {

  public static final int DEFAULT_PORT = 50051;
  /** Echo messages are ~100 bytes; a larger inbound message is refused with RESOURCE_EXHAUSTED. */
  public static final int DEFAULT_MAX_MESSAGE = 1024 * 1024;
  /** grpc-netty's own initial HTTP/2 flow-control window (NettyServerBuilder.DEFAULT_FLOW_CONTROL_WINDOW). */
  public static final int DEFAULT_FLOW_WINDOW = 1024 * 1024;
  /** Orders a chat asks for ahead of the ones it has echoed: its buffer's bound beyond HTTP/2's window. */
  static final int CHAT_BATCH = 64;

  public static void main(String[] args) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(DEFAULT_PORT);
    // 200 service threads: the write-up's server pool, as for the other frameworks' servers.
    defaults.put("threads", "200");
    defaults.put("max-message", Integer.toString(DEFAULT_MAX_MESSAGE));
    defaults.put("flow-window", Integer.toString(DEFAULT_FLOW_WINDOW));
    defaults.put("transport", "auto");
    defaults.put("compression", "none");
    EchoServerMain.run("grpc", args, defaults, GrpcEchoServer::start);
  }

  static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port, Optional<ServerTls> tls)
      throws Exception {
    int threads = flags.intValue("threads", 0, 10_000);
    int maxMessage = flags.intValue("max-message", 1024, Integer.MAX_VALUE);
    int flowWindow = flags.intValue("flow-window", 65_535, Integer.MAX_VALUE);
    String transport = flags.oneOf("transport", "auto", "epoll", "nio");
    String compression = flags.oneOf("compression", "none", "gzip");
    if (transport.equals("epoll") && !Epoll.isAvailable()) {
      throw new IllegalArgumentException("--transport epoll: grpc-netty's epoll transport does not load here ("
          + Epoll.unavailabilityCause().getMessage() + "); use --transport nio or auto");
    }
    boolean epoll = transport.equals("epoll") || transport.equals("auto") && Epoll.isAvailable();
    SslContext sslContext = tls.isPresent() ? sslContext(tls.get()) : null; // before any thread: a bad file leaks none
    // The event loops made here, as grpc-netty would make them, so the run says (and can choose) which.
    IoHandlerFactory ioHandlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, ioHandlers);
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(0, ioHandlers);
    Echo echo = new Echo(ServiceDelay.from(flags));
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .bossEventLoopGroup(boss).workerEventLoopGroup(workers)
        .channelType(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
        .maxInboundMessageSize(maxMessage)
        .flowControlWindow(flowWindow)
        .addService(compression.equals("none") ? echo.bindService()
            : ServerInterceptors.intercept(echo, compressingReplies(compression)))
        // Server reflection: clients without generated code learn the schema from the server.
        .addService(ProtoReflectionServiceV1.newInstance());
    if (sslContext != null) {
      builder.sslContext(sslContext);
    }
    ExecutorService pool = null;
    if (threads == 0) {
      builder.directExecutor();
    } else {
      AtomicInteger n = new AtomicInteger();
      pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "grpc-service-" + n.incrementAndGet()));
      builder.executor(pool);
    }
    Server server;
    try {
      server = builder.build().start();
    } catch (Exception e) {
      if (pool != null) {
        pool.shutdownNow();
      }
      workers.shutdownGracefully();
      boss.shutdownGracefully();
      throw e;
    }
    ExecutorService servicePool = pool;
    String settings = "NettyServerBuilder on " + (epoll ? "epoll" : "NIO") + ", " + (threads == 0 ? "direct executor (the service on the transport's"
        + " event loop)" : "a fixed pool of " + EchoServerMain.count(threads, "service thread")) + ", flow-control window " + flowWindow
        + " bytes, replies " + (compression.equals("none") ? "uncompressed" : compression + "-compressed");
    return EchoServerMain.RunningServer.naming(settings, () -> {
      server.shutdown();
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
      if (servicePool != null) {
        servicePool.shutdownNow();
      }
      workers.shutdownGracefully().sync();
      boss.shutdownGracefully().sync();
    });
  }

  /** grpc-java's server TLS: OpenSSL (BoringSSL, inside grpc-netty-shaded) when it loads, else the JDK's. */
  /** Sets every reply's compressor (grpc-java's registry name); the client learns it from the reply's grpc-encoding. */
  static ServerInterceptor compressingReplies(String compressor) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                         ServerCallHandler<Q, R> next) {
        call.setCompression(compressor);
        return next.startCall(call, headers);
      }
    };
  }

  static SslContext sslContext(ServerTls tls) throws SSLException {
    TlsFiles.Identity identity = TlsFiles.identity(tls.cert(), tls.key());
    SslContextBuilder builder = GrpcSslContexts.configure(SslContextBuilder.forServer(identity.keyManagers()));
    if (tls.mutual()) {
      builder.trustManager(TlsFiles.trustManagers(TlsFiles.certificates(tls.clientCa()))).clientAuth(ClientAuth.REQUIRE);
    }
    return builder.build();
  }

  public static final class Echo extends MobileServiceGrpc.MobileServiceImplBase {
    private final ServiceDelay delay;

    public Echo(ServiceDelay delay) {
      this.delay = delay;
    }

    @Override
    public void listOrders(ListRequest request, StreamObserver<OrderList> reply) {
      Served.call();
      String bad = SampleOrder.badCount(request.getCount());
      if (bad != null) {
        reply.onError(Status.INVALID_ARGUMENT.withDescription(bad).asRuntimeException());
        return;
      }
      reply.onNext(OrderList.newBuilder().addAllOrders(SampleOrder.list(GrpcOrder::of, request.getCount()))
          .build());
      reply.onCompleted();
    }

    /**
     * {@code count} orders, sent only while the transport takes them: a slow reader holds the stream
     * back (HTTP/2 flow control) instead of growing a buffer here; the rest goes when it is ready again.
     */
    @Override
    public void watch(WatchRequest request, StreamObserver<Order> reply) {
      Served.call();
      String bad = SampleOrder.badWatchCount(request.getCount());
      if (bad != null) {
        reply.onError(Status.INVALID_ARGUMENT.withDescription(bad).asRuntimeException());
        return;
      }
      ServerCallStreamObserver<Order> out = (ServerCallStreamObserver<Order>) reply;
      int count = request.getCount();
      int[] next = {0}; // gRPC runs a call's handlers one at a time
      boolean[] ended = {false};
      Runnable send = () -> {
        while (!ended[0] && next[0] < count && out.isReady()) {
          out.onNext(SampleOrder.make(GrpcOrder::of, next[0]++, SampleOrder.NAME));
        }
        if (!ended[0] && next[0] == count) {
          ended[0] = true;
          out.onCompleted();
        }
      };
      out.setOnCancelHandler(() -> ended[0] = true);
      out.setOnReadyHandler(send);
      send.run();
    }

    /** Counts the orders and sums their amounts; answers once the client has sent them all. */
    @Override
    public StreamObserver<Order> upload(StreamObserver<UploadSummary> reply) {
      Served.call();
      return new StreamObserver<>() {
        private long count;
        private double amount;

        @Override
        public void onNext(Order order) {
          count++;
          amount += order.getAmount();
        }

        @Override
        public void onError(Throwable t) {
          // the client cancelled, or the connection went: nothing to answer
        }

        @Override
        public void onCompleted() {
          reply.onNext(UploadSummary.newBuilder().setCount(count).setAmount(amount).build());
          reply.onCompleted();
        }
      };
    }

    /**
     * Each order echoed as it arrives, with manual flow control (grpc-java's own pattern): orders are
     * asked for only while the reply side takes more, so a client that sends but does not read stalls
     * its own sends rather than filling this server's memory. Up to {@link #CHAT_BATCH} are asked for
     * ahead: one at a time, each order waited for a hop to the transport and back (5,000 a second on
     * one stream here).
     */
    @Override
    public StreamObserver<Order> chat(StreamObserver<Order> reply) {
      Served.call();
      ServerCallStreamObserver<Order> out = (ServerCallStreamObserver<Order>) reply;
      out.disableAutoRequest();
      int[] asked = {0}; // asked for and not yet arrived; gRPC runs a call's handlers one at a time
      Runnable askMore = () -> {
        if (out.isReady() && asked[0] < CHAT_BATCH / 2) {
          out.request(CHAT_BATCH - asked[0]);
          asked[0] = CHAT_BATCH;
        }
      };
      out.setOnReadyHandler(askMore);
      return new StreamObserver<>() {
        @Override
        public void onNext(Order order) {
          asked[0]--;
          out.onNext(order);
          askMore.run();
        }

        @Override
        public void onError(Throwable t) {
          // the client cancelled, or the connection went
        }

        @Override
        public void onCompleted() {
          out.onCompleted();
        }
      };
    }

    @Override
    public void hello(Order request, StreamObserver<Order> reply) {
      long arrived = Served.call();
      // gRPC's async service API: the reply may come from any thread, later.
      delay.then(() -> {
        reply.onNext(request);
        reply.onCompleted();
        Served.replied(arrived);
      });
    }
  }
}
