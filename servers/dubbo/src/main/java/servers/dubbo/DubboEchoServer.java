package servers.dubbo;

import contract.dubbo.DubboSerialization;
import contract.dubbo.ExactAddressTransporter;
import contract.dubbo.MobileService;
import contract.pojo.Order;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import contract.SampleOrder;
import java.util.concurrent.CompletableFuture;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.AsyncContext;
import org.apache.dubbo.rpc.RpcContext;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServerTls;
import servers.common.ServiceDelay;

/**
 * Dubbo provider of the echo: dubbo protocol over Netty; with no registry clients connect directly,
 * with {@code --registry zookeeper://host:port} it registers its URL there (interface-level).
 *
 * <pre>java servers.dubbo.DubboEchoServer [--host 127.0.0.1] [--port 20880] [--threads 200] [--queues 0]
 *     [--serialization hessian2|kryo|fastjson2] [--payload 8388608] [--registry none|zookeeper://host:port]
 *     [--dispatcher all|direct|message|execution|connection] [--threadpool fixed|cached|limited|eager]</pre>
 */
public final class DubboEchoServer {

  public static final int DEFAULT_PORT = 20880;
  /** Largest request or reply body, Dubbo's own default; a connection declaring more is closed (GuardedCodec). */
  public static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;

  public static void main(String[] args) {
    EchoServerMain.run("dubbo", args, defaults(DEFAULT_PORT), DubboEchoServer::start);
  }

  /** Every flag the server takes, with its default. */
  static Map<String, String> defaults(int port) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(port);
    // 200 provider threads: the write-up's pool, and Dubbo's own default for a fixed pool.
    defaults.put("threads", "200");
    // Dubbo's own default: no queue (a SynchronousQueue), each call handed to an idle thread or refused.
    defaults.put("queues", "0");
    defaults.put("serialization", DubboSerialization.DEFAULT);
    // Dubbo's own defaults: every message to the provider pool ("all"), a fixed pool.
    defaults.put("dispatcher", "all");
    defaults.put("threadpool", "fixed");
    defaults.put("payload", Integer.toString(DEFAULT_PAYLOAD));
    defaults.put("registry", ZooKeeperRegistration.NO_REGISTRY);
    return defaults;
  }

  static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port,
      Optional<ServerTls> tls) {
    String serialization = flags.oneOf("serialization", DubboSerialization.SUPPORTED.toArray(String[]::new));
    int threads = flags.intValue("threads", 1, 10_000);
    int queues = flags.intValue("queues", 0, Integer.MAX_VALUE);
    String dispatcher = flags.oneOf("dispatcher", DISPATCHERS);
    String threadpool = flags.oneOf("threadpool", THREADPOOLS);
    int payload = flags.intValue("payload", 1024, Integer.MAX_VALUE);
    String registryAddress = ZooKeeperRegistration.checked(flags.get("registry"));
    DubboSerialization.secureKryo();

    ApplicationConfig application = new ApplicationConfig("dubbo-echo-server");
    application.setQosEnable(false);
    // Only the contract's classes (those in MobileService's signatures) may be deserialized.
    application.setSerializeCheckStatus("STRICT");
    // Interface-level registration (Dubbo 2's): the provider's URL under its interface (see register).
    application.setRegisterMode("interface");

    ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
    protocol.setHost(host);
    protocol.setServer(ExactAddressTransporter.NAME);
    protocol.setParameters(Map.of(ExactAddressTransporter.BIND_HOST_KEY, host));
    protocol.setThreadpool(threadpool);
    protocol.setDispatcher(dispatcher);
    protocol.setThreads(threads);
    protocol.setQueues(queues);
    protocol.setPayload(payload);
    protocol.setSerialization(serialization);
    protocol.setPreferSerialization(serialization);

    ServiceConfig<MobileService> service = new ServiceConfig<>();
    service.setInterface(MobileService.class);
    service.setRef(new Echo(ServiceDelay.from(flags)));

    DubboBootstrap bootstrap = DubboBootstrap.newInstance();
    DubboTls.apply(bootstrap, tls).application(application)
        .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
        .protocol(protocol)
        .service(service)
        .start();
    // What Dubbo exported, from its own URL: the settings as the provider runs them.
    org.apache.dubbo.common.URL url = service.getExportedUrls().get(0);
    return EchoServerMain.RunningServer.naming("Dubbo provider, dispatcher " + url.getParameter("dispatcher", "all")
        + ", " + url.getParameter("threadpool", "fixed") + " pool of "
        + EchoServerMain.count(url.getParameter("threads", 200), "thread") + queue(url)
        + ", serialization " + url.getParameter("serialization", "?"),
        ZooKeeperRegistration.register(bootstrap, registryAddress, service.getExportedUrls(), host));
  }

  /** The pool's queue as the exported URL says it: nothing for Dubbo's default (none, a SynchronousQueue). */
  static String queue(org.apache.dubbo.common.URL url) {
    int queues = url.getParameter("queues", 0);
    return queues > 0 ? ", queue of " + queues : "";
  }

  /** Dubbo's dispatchers: which messages go to the provider pool (all, ...) or stay on the I/O thread (direct). */
  static final String[] DISPATCHERS = {"all", "direct", "message", "execution", "connection"};
  /** Dubbo's provider thread pools. */
  static final String[] THREADPOOLS = {"fixed", "cached", "limited", "eager"};

  static final class Echo implements MobileService {
    private final ServiceDelay delay;

    Echo(ServiceDelay delay) {
      this.delay = delay;
    }

    @Override
    public Order hello(Order order) {
      long arrived = Served.call();
      if (delay.none()) {
        Served.replied(arrived);
        return order;
      }
      // Dubbo's provider-side async: the provider thread is free at once, the reply goes later.
      AsyncContext async = RpcContext.startAsync();
      delay.then(() -> {
        async.write(order);
        Served.replied(arrived);
      });
      return null;
    }

    @Override
    public CompletableFuture<Order> helloAsync(Order order) {
      return Served.replied(Served.call(), delay.after(order));
    }

    @Override
    public List<Order> listOrders(int count) {
      Served.call();
      String bad = SampleOrder.badCount(count);
      if (bad != null) {
        throw new IllegalArgumentException(bad);
      }
      return SampleOrder.list(Order::new, count);
    }

    @Override
    public CompletableFuture<List<Order>> listOrdersAsync(int count) {
      return CompletableFuture.completedFuture(listOrders(count));
    }
  }
}
