package servers.ice;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.Current;
import com.zeroc.Ice.InitializationData;
import com.zeroc.Ice.ObjectAdapter;
import com.zeroc.Ice.Util;
import contract.SampleOrder;
import contract.zeroc.BadRequest;
import contract.tls.TlsFiles;
import contract.zeroc.IceSettings;
import contract.zeroc.IceTls;
import contract.zeroc.MobileService;
import contract.zeroc.Order;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.CompletionStage;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServerTls;
import java.util.Optional;
import servers.common.ServiceDelay;

/**
 * ZeroC Ice 3.7 echo server: one object adapter on a TCP endpoint, the servant under identity
 * {@value IceSettings#IDENTITY}; with {@code --registry icegrid://host:port} the adapter registers
 * itself with that IceGrid registry, in replica group {@value IceSettings#REPLICA_GROUP}.
 *
 * <pre>java servers.ice.IceEchoServer [--host 127.0.0.1] [--port 10000] [--threads 200]
 *     [--max-message 1048576] [--registry none|icegrid://host:port]</pre>
 */
public final class IceEchoServer {
  private static final Pattern ICEGRID = Pattern.compile("icegrid://([^:/]+):(\\d+)");

  public static final int DEFAULT_PORT = 10000;

  public static void main(String[] args) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(DEFAULT_PORT);
    // 200 server threads: the write-up's server pool, as for the other frameworks' servers.
    defaults.put("threads", "200");
    defaults.put("max-message", Integer.toString(IceSettings.DEFAULT_MAX_MESSAGE));
    defaults.put("registry", "none");
    EchoServerMain.run("ice", args, defaults, IceEchoServer::start);
  }

  static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port, Optional<ServerTls> tls) {

    int threads = flags.intValue("threads", 1, 10_000);
    int maxMessage = flags.intValue("max-message", 1024, Integer.MAX_VALUE);
    InitializationData init = new InitializationData();
    init.properties = IceSettings.properties(maxMessage);
    // Ice's server pool both reads requests and dispatches them (leader/follower).
    init.properties.setProperty("Ice.ThreadPool.Server.Size", Integer.toString(threads));
    init.properties.setProperty("Ice.ThreadPool.Server.SizeMax", Integer.toString(threads));
    String registry = flags.get("registry");
    if (!registry.equals("none")) {
      Matcher m = ICEGRID.matcher(registry);
      if (!m.matches()) {
        throw new IllegalArgumentException("--registry must be none or icegrid://host:port, got '" + registry + "'");
      }
      // The adapter registers its endpoints with IceGrid's locator registry (which must allow dynamic
      // registration) under its own id, in the replica group every echo server joins.
      init.properties.setProperty("Ice.Default.Locator", IceSettings.LOCATOR + ":tcp -h " + m.group(1) + " -p "
          + m.group(2));
      init.properties.setProperty("Echo.AdapterId", "echo-" + host + "-" + port);
      init.properties.setProperty("Echo.ReplicaGroupId", IceSettings.REPLICA_GROUP);
      // Registering must not wait forever on a registry that is not there.
      init.properties.setProperty("Ice.Default.InvocationTimeout", "5000");
    }
    if (tls.isPresent()) { // IceSSL: a client certificate required with --tls-client-ca
      IceTls.configure(init.properties, tls.get().mutual(), false, false);
    }
    init.properties.setProperty("Echo.Endpoints", IceTls.endpoint(tls.isPresent(), host, port));
    Communicator communicator = Util.initialize(init);
    try {
      if (tls.isPresent()) {
        IceTls.start(communicator, TlsFiles.identity(tls.get().cert(), tls.get().key()),
            tls.get().mutual() ? TlsFiles.certificates(tls.get().clientCa()) : null);
      }
      ObjectAdapter adapter = communicator.createObjectAdapter("Echo");
      adapter.add(new Echo(ServiceDelay.from(flags)), Util.stringToIdentity(IceSettings.IDENTITY));
      adapter.activate();
    } catch (RuntimeException e) {
      communicator.destroy();
      throw e;
    }
    // What Ice itself runs with, read back from the communicator's properties.
    com.zeroc.Ice.Properties set = communicator.getProperties();
    int size = set.getPropertyAsInt("Ice.ThreadPool.Server.Size");
    int sizeMax = set.getPropertyAsInt("Ice.ThreadPool.Server.SizeMax");
    return EchoServerMain.RunningServer.naming("Ice " + com.zeroc.Ice.Util.stringVersion() + ", server thread pool of "
        + (size == sizeMax ? "" : size + " to ") + EchoServerMain.count(sizeMax, "thread")
        + " (reading and dispatching), amd dispatch", communicator::destroy);
  }

  /** Asynchronous dispatch (["amd"] in Order.ice): the reply is sent when the stage completes. */
  static final class Echo implements MobileService {
    private final ServiceDelay delay;

    Echo(ServiceDelay delay) {
      this.delay = delay;
    }

    @Override
    public CompletionStage<Order> helloAsync(Order order, Current current) {
      return Served.replied(Served.call(), delay.after(order));
    }

    @Override
    public Order[] listOrders(int count, Current current) throws BadRequest {
      Served.call();
      String bad = SampleOrder.badCount(count);
      if (bad != null) {
        throw new BadRequest(bad);
      }
      return SampleOrder.list(Order::new, count).toArray(Order[]::new);
    }
  }
}
