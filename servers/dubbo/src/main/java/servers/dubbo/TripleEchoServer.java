package servers.dubbo;

import contract.SampleOrder;
import contract.grpc.DubboMobileServiceTriple;
import contract.grpc.GrpcOrder;
import contract.grpc.ListRequest;
import contract.grpc.MobileService;
import contract.grpc.Order;
import contract.grpc.OrderList;
import contract.grpc.UploadSummary;
import contract.grpc.WatchRequest;
import contract.dubbo.TripleHost;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.remoting.http12.h2.Http2CancelableStreamObserver;
import org.apache.dubbo.rpc.CancellationContext;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.context.ConfigManager;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.config.nested.TripleConfig;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServerTls;
import servers.common.ServiceDelay;

/**
 * Dubbo provider of the echo over Triple, Dubbo 3's gRPC-compatible HTTP/2 protocol: the stubs Dubbo's
 * protoc plugin makes from {@code order.proto}, so a grpc-java client calls it as it calls
 * GrpcEchoServer (service {@code rpcloadlab.MobileService}), unary and streams.
 *
 * With {@code --registry zookeeper://host:port} it registers its {@code tri://} URL there (interface-level).
 *
 * <pre>java servers.dubbo.TripleEchoServer [--host 127.0.0.1] [--port 50052] [--threads 200] [--queues 0]
 *     [--max-message 8388608] [--registry none|zookeeper://host:port] [--flow-window 8388608]</pre>
 *
 * {@code --flow-window} is the HTTP/2 initial window the provider grants each call (Triple's
 * {@code initialWindowSize}; its default 8 MiB): how much a client may send on a call before the
 * provider's WINDOW_UPDATE.
 */
public final class TripleEchoServer {

  public static final int DEFAULT_PORT = 50052;
  /** Triple's own default largest message body. */
  public static final int DEFAULT_MAX_MESSAGE = TripleConfig.DEFAULT_MAX_RESPONSE_BODY_SIZE;

  public static void main(String[] args) {
    EchoServerMain.run("triple", args, defaults(DEFAULT_PORT), TripleEchoServer::start);
  }

  /** Every flag the server takes, with its default. */
  public static Map<String, String> defaults(int port) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(port);
    defaults.put("threads", "200"); // the write-up's pool, as the dubbo protocol's server
    // Dubbo's own default: no queue (a SynchronousQueue), each call handed to an idle thread or refused.
    defaults.put("queues", "0");
    defaults.put("max-message", Integer.toString(DEFAULT_MAX_MESSAGE));
    defaults.put("registry", ZooKeeperRegistration.NO_REGISTRY);
    defaults.put("flow-window", Integer.toString(TripleConfig.DEFAULT_INITIAL_WINDOW_SIZE));
    return defaults;
  }

  public static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port,
      Optional<ServerTls> tls) {
    int threads = flags.intValue("threads", 1, 10_000);
    int queues = flags.intValue("queues", 0, Integer.MAX_VALUE);
    int maxMessage = flags.intValue("max-message", 1024, Integer.MAX_VALUE);
    int flowWindow = flags.intValue("flow-window", 65_535, Integer.MAX_VALUE);
    String registryAddress = ZooKeeperRegistration.checked(flags.get("registry"));
    ApplicationConfig application = new ApplicationConfig("triple-echo-server");
    application.setQosEnable(false);
    application.setSerializeCheckStatus("STRICT");
    application.setRegisterMode("interface");

    ProtocolConfig protocol = new ProtocolConfig("tri", port);
    protocol.setHost(TripleHost.exact(host));
    TripleConfig triple = new TripleConfig();
    // Over HTTP/2, Dubbo 3.3.6 limits only what the server sends (maxResponseBodySize): maxBodySize is
    // for HTTP/1 and WebSocket. Both are set, so the flag means what it says wherever Dubbo checks it.
    triple.setMaxBodySize(maxMessage);
    triple.setMaxResponseBodySize(maxMessage);
    triple.setInitialWindowSize(flowWindow);
    protocol.setTriple(triple);
    protocol.setThreadpool("fixed");
    protocol.setThreads(threads);
    protocol.setQueues(queues);

    ServiceConfig<MobileService> service = new ServiceConfig<>();
    service.setInterface(MobileService.class);
    service.setRef(new Echo(ServiceDelay.from(flags)));

    DubboBootstrap bootstrap = DubboBootstrap.newInstance();
    DubboTls.apply(bootstrap, tls).application(application)
        .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
        .protocol(protocol)
        .service(service)
        .start();
    org.apache.dubbo.common.URL url = service.getExportedUrls().get(0);
    // Registered as the server binds: 127.0.0.1 as the number Dubbo's consumer keeps (TripleHost).
    // The window as Dubbo's HTTP/2 codec reads it: the exported URL's protocol config.
    int window = ConfigManager.getProtocolOrDefault(url).getTripleOrDefault().getInitialWindowSizeOrDefault();
    return EchoServerMain.RunningServer.naming("Dubbo Triple provider, " + url.getParameter("threadpool", "fixed")
        + " pool of " + EchoServerMain.count(url.getParameter("threads", 200), "thread") + DubboEchoServer.queue(url)
        + ", HTTP/2 initial window " + window + " bytes",
        ZooKeeperRegistration.register(bootstrap, registryAddress, service.getExportedUrls(), TripleHost.exact(host)));
  }

  /**
   * The echo and the three streams. Dubbo 3.3's server stream observer has no isReady/onReady, so
   * {@code watch} cannot wait for the transport as the gRPC server does: its sends are bounded by the
   * request's count (at most {@link SampleOrder#MAX_WATCH}), not by the reader.
   */
  public static final class Echo extends DubboMobileServiceTriple.MobileServiceImplBase {
    private final ServiceDelay delay;

    public Echo(ServiceDelay delay) {
      this.delay = delay;
    }

    @Override
    public Order hello(Order order) {
      Served.replied(Served.call());
      return order;
    }

    @Override
    public CompletableFuture<Order> helloAsync(Order order) {
      return Served.replied(Served.call(), delay.after(order));
    }

    @Override
    public OrderList listOrders(ListRequest request) {
      Served.call();
      String bad = SampleOrder.badCount(request.getCount());
      if (bad != null) {
        throw new IllegalArgumentException(bad);
      }
      return OrderList.newBuilder().addAllOrders(SampleOrder.list(GrpcOrder::of, request.getCount())).build();
    }

    @Override
    public void watch(WatchRequest request, StreamObserver<Order> reply) {
      Served.call();
      String bad = SampleOrder.badWatchCount(request.getCount());
      if (bad != null) {
        reply.onError(new IllegalArgumentException(bad));
        return;
      }
      // No readiness signal to wait for; at least stop when the client cancels (a timeout, a reset).
      CancellationContext cancelled = reply instanceof Http2CancelableStreamObserver<?> c ? c.getCancellationContext() : null;
      for (int i = 0; i < request.getCount(); i++) {
        if ((i & 1023) == 0 && cancelled != null && cancelled.isCancelled()) {
          return;
        }
        reply.onNext(SampleOrder.make(GrpcOrder::of, i, SampleOrder.NAME));
      }
      reply.onCompleted();
    }

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
        public void onError(Throwable error) {
          // the client gave up: nothing to answer
        }

        @Override
        public void onCompleted() {
          reply.onNext(UploadSummary.newBuilder().setCount(count).setAmount(amount).build());
          reply.onCompleted();
        }
      };
    }

    @Override
    public StreamObserver<Order> chat(StreamObserver<Order> reply) {
      Served.call();
      return new StreamObserver<>() {
        @Override
        public void onNext(Order order) {
          reply.onNext(order);
        }

        @Override
        public void onError(Throwable error) {
        }

        @Override
        public void onCompleted() {
          reply.onCompleted();
        }
      };
    }
  }
}
