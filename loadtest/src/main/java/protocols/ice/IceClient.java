package protocols.ice;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.ConnectFailedException;
import com.zeroc.Ice.NotRegisteredException;
import com.zeroc.Ice.ConnectTimeoutException;
import com.zeroc.Ice.InitializationData;
import contract.zeroc.IceTls;
import protocols.rpc.Tls;
import com.zeroc.Ice.InvocationTimeoutException;
import com.zeroc.Ice.LocalException;
import com.zeroc.Ice.MemoryLimitException;
import com.zeroc.Ice.ObjectNotExistException;
import com.zeroc.Ice.ObjectPrx;
import com.zeroc.Ice.OutputStream;
import com.zeroc.Ice.SocketException;
import com.zeroc.Ice.TimeoutException;
import com.zeroc.Ice.UserException;
import com.zeroc.Ice.Util;
import contract.zeroc.IceSettings;
import contract.zeroc.Order;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import protocols.rpc.GatlingLoops;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcSettings;
import protocols.rpc.SizeLimit;

/**
 * One Ice communicator per run, with IceGrid's locator as its default locator when the run goes
 * through a registry (proxies are then indirect, {@code identity@adapterId}). In a Gatling run (or the
 * plain driver's loops) one proxy per event loop, each with its own connection id (hence its own
 * connection), and each virtual user calls through its own loop's: the loops do not contend for one
 * connection's lock, and Ice's client threads read the connections side by side. Outside them Ice's
 * one shared connection per server. With {@code connections} = N, N proxies with distinct connection
 * ids, a user calling on its loop's if there is one (as gRPC's channels), else in turn. In sync mode
 * every proxy carries an invocation timeout of the run's timeout; in async mode none: Ice runs each one
 * on a locked JDK scheduled executor, a per-call cost (7% of a profiled run's samples) for what the
 * core's timeout already does, and the core cancels the Ice call when it fires.
 */
public final class IceClient implements RpcClient {
  private static final String SERVER_FLAG = "--max-message";
  private static final int STARTUP_TIMEOUT_MILLIS = 5_000;
  private static final Pattern REQUESTED = Pattern.compile("requested (\\d+) bytes");
  private final RpcSettings settings;
  private final Communicator communicator;
  private final Map<String, ObjectPrx[]> proxies = new HashMap<>();
  private final AtomicInteger next = new AtomicInteger();
  private final int maxMessage;
  private final String adapterId;
  /** Gatling's event loops (or the plain driver's); null outside them. */
  private final EventLoop[] loops;

  /** @param gatlingLoops the loops the calls are made from, one connection each; or null */
  IceClient(RpcSettings settings, int maxMessage, IceProtocol.Options options, EventLoopGroup gatlingLoops) {
    this.settings = settings;
    this.adapterId = options.adapterId();
    this.loops = gatlingLoops == null ? null : GatlingLoops.of(gatlingLoops);
    InitializationData init = new InitializationData();
    init.properties = IceSettings.properties(maxMessage);
    settings.viaRegistry().ifPresent(r -> init.properties.setProperty("Ice.Default.Locator",
        IceSettings.LOCATOR + ":tcp -h " + r.address().host() + " -p " + r.address().port()));
    this.maxMessage = init.properties.getPropertyAsInt("Ice.MessageSizeMax") * 1024;
    // Replies to async calls are read and completed on this pool; by default one thread per core.
    init.properties.setProperty("Ice.ThreadPool.Client.Size", Integer.toString(clientPoolSize(options.clientThreads())));
    init.properties.setProperty("Ice.ACM.Client.Timeout", Integer.toString(options.acmTimeout()));
    Tls tls = settings.tls();
    List<java.security.cert.X509Certificate> trusted = tls == null ? null : tls.trusted().orElse(null);
    if (tls != null) { // IceSSL: the server's certificate checked, and its name against the endpoint's host
      IceTls.configure(init.properties, true, true, trusted == null);
    }
    communicator = Util.initialize(init);
    if (tls != null) {
      try {
        IceTls.start(communicator, tls.identity().orElse(null), trusted);
      } catch (RuntimeException e) {
        communicator.destroy();
        throw e;
      }
    }
  }

  /** Ice's client pool size for {@code -Dice.clientThreads}: 0 is one per core. */
  static int clientPoolSize(int clientThreads) {
    return clientThreads > 0 ? clientThreads : Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  /** A property as the communicator reads it (e.g. Ice.ThreadPool.Client.Size): what Ice was started with. */
  public String communicatorProperty(String name) {
    return communicator.getProperties().getProperty(name);
  }

  /**
   * The proxies of the object {@code identity} on the target, one per connection (see the class), each
   * with a distinct connection id but Ice's shared one outside event loops, in sync mode each with the run's
   * invocation timeout. Pinged once, so a run fails at start, not on the first call, if the server or the object
   * is not there; a -Dtimeout of a few ms is for calls, not for setting up the connection.
   */
  synchronized ObjectPrx[] proxies(String identity) {
    ObjectPrx[] made = proxies.get(identity);
    if (made != null) {
      return made;
    }
    int n = settings.connections() > 0 ? settings.connections() : loops == null ? 1 : loops.length;
    made = new ObjectPrx[n];
    String name = Util.identityToString(Util.stringToIdentity(identity));
    // Through IceGrid an indirect proxy: the locator gives the group's endpoints. With several of them,
    // Ice's own per-call choice: no cached connection, so each call picks an endpoint (random).
    String proxy = settings.viaRegistry().isPresent() ? name + "@" + adapterId
        : name + String.join("", settings.targets().stream().map(t -> ":" + IceTls.endpoint(settings.tls() != null,
            t.host(), t.port())).toList());
    boolean spread = settings.viaRegistry().isPresent() || settings.targets().size() > 1;
    for (int i = 0; i < n; i++) {
      ObjectPrx prx = communicator.stringToProxy(proxy);
      if (spread) {
        prx = prx.ice_connectionCached(false);
      }
      if (settings.mode() == InvocationMode.SYNC) {
        prx = prx.ice_invocationTimeout((int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis()));
      }
      made[i] = settings.connections() == 0 && loops == null ? prx : prx.ice_connectionId("c" + i);
      try {
        made[i].ice_invocationTimeout(STARTUP_TIMEOUT_MILLIS).ice_ping();
      } catch (ObjectNotExistException e) {
        throw new IllegalArgumentException("the Ice server at " + where() + " has no object '" + identity + "'");
      } catch (NotRegisteredException e) {
        throw new IllegalArgumentException("the IceGrid registry at " + settings.registry().address()
            + " knows no " + e.kindOfObject + " '" + e.id + "': no provider registered it");
      } catch (InvocationTimeoutException | ConnectFailedException e) {
        if (settings.viaRegistry().isPresent()) {
          throw new IllegalStateException("the IceGrid registry at " + settings.registry().address()
              + " (or the providers it named) did not answer within " + STARTUP_TIMEOUT_MILLIS + " ms: "
              + e.getClass().getSimpleName());
        }
        throw e;
      }
    }
    proxies.put(identity, made);
    return made;
  }

  private String where() {
    return settings.viaRegistry().map(r -> "IceGrid " + r.address()).orElse(settings.host() + ":" + settings.port());
  }

  /** The calling loop's proxy if it has one, else the next of {@code proxies} in turn. */
  <P> P pick(P[] proxies) {
    return proxies[loops != null ? GatlingLoops.connectionFor(loops, proxies.length, next)
        : Math.floorMod(next.getAndIncrement(), proxies.length)];
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof InvocationTimeoutException || error instanceof ConnectTimeoutException
        || error instanceof TimeoutException;
  }

  @Override
  public String sizeLimit(Throwable error, Object request) {
    if (error instanceof MemoryLimitException e) {
      // This client refused the reply: "requested 2000123 bytes, maximum allowed is 1048576 bytes ..."
      Matcher m = REQUESTED.matcher(String.valueOf(e.reason));
      return SizeLimit.message("ice", "reply", m.find() ? Long.parseLong(m.group(1)) : -1, maxMessage, SERVER_FLAG);
    }
    if (error instanceof SocketException && request != null) {
      // The server drops a connection whose request is over its limit; Ice does not say why.
      long size = request instanceof byte[] b ? b.length : request instanceof Order o ? marshalledSize(o) : -1;
      return size > maxMessage ? SizeLimit.message("ice", "request", size, maxMessage, SERVER_FLAG) : null;
    }
    return null;
  }

  /** The order as Ice marshals it (a few bytes short of the whole request message). */
  private long marshalledSize(Order order) {
    OutputStream out = new OutputStream(communicator);
    out.startEncapsulation();
    Order.ice_write(out, order);
    out.endEncapsulation();
    return out.size();
  }

  @Override
  public String errorCode(Throwable error) {
    if (error instanceof LocalException e) {
      return "ice " + e.ice_id();
    }
    if (error instanceof UserException e) {
      return "ice " + e.ice_id();
    }
    if (error instanceof IceDynamic.UserExceptionReply) {
      return "ice user exception";
    }
    return error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    communicator.destroy();
  }
}
