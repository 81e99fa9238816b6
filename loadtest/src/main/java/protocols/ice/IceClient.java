package protocols.ice;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.ConnectTimeoutException;
import com.zeroc.Ice.InitializationData;
import com.zeroc.Ice.InvocationTimeoutException;
import com.zeroc.Ice.LocalException;
import com.zeroc.Ice.MemoryLimitException;
import com.zeroc.Ice.OutputStream;
import com.zeroc.Ice.SocketException;
import com.zeroc.Ice.TimeoutException;
import com.zeroc.Ice.UserException;
import com.zeroc.Ice.Util;
import contract.zeroc.IceSettings;
import contract.zeroc.MobileServicePrx;
import contract.zeroc.Order;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.core.RpcClient;
import protocols.core.RpcSettings;
import protocols.core.SizeLimit;

/**
 * One Ice communicator per run. Ice shares one connection per server by default; with
 * {@code connections} = N the users are spread over N proxies with distinct connection ids, hence N
 * connections. Every proxy carries an invocation timeout of the run's timeout.
 */
final class IceClient implements RpcClient<Order, Order> {
  private static final String SERVER_FLAG = "--max-message";
  private static final int STARTUP_TIMEOUT_MILLIS = 5_000;
  private static final Pattern REQUESTED = Pattern.compile("requested (\\d+) bytes");
  private final Communicator communicator;
  private final MobileServicePrx[] proxies;
  private final AtomicInteger next = new AtomicInteger();
  private final int maxMessage;

  IceClient(RpcSettings settings, int maxMessage) {
    InitializationData init = new InitializationData();
    init.properties = IceSettings.properties(maxMessage);
    this.maxMessage = init.properties.getPropertyAsInt("Ice.MessageSizeMax") * 1024;
    // Replies to async calls are read and completed on this pool; one thread per core.
    init.properties.setProperty("Ice.ThreadPool.Client.Size",
        Integer.toString(Math.max(1, Runtime.getRuntime().availableProcessors())));
    communicator = Util.initialize(init);
    try {
      int n = Math.max(1, settings.connections());
      proxies = new MobileServicePrx[n];
      String endpoint = IceSettings.IDENTITY + ":tcp -h " + settings.host() + " -p " + settings.port();
      for (int i = 0; i < n; i++) {
        MobileServicePrx prx = MobileServicePrx.uncheckedCast(communicator.stringToProxy(endpoint))
            .ice_invocationTimeout((int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis()));
        proxies[i] = settings.connections() == 0 ? prx : prx.ice_connectionId("c" + i);
        // Fail at start, not on the first call, if the server is not there; a -Dtimeout of a few ms
        // is for calls, not for setting up the connection.
        proxies[i].ice_invocationTimeout(STARTUP_TIMEOUT_MILLIS).ice_ping();
      }
    } catch (RuntimeException e) {
      communicator.destroy();
      throw e;
    }
  }

  private MobileServicePrx pick() {
    return proxies[Math.floorMod(next.getAndIncrement(), proxies.length)];
  }

  @Override
  public CompletionStage<Order> callAsync(Order request) {
    return pick().helloAsync(request);
  }

  @Override
  public Order callSync(Order request) {
    return pick().hello(request);
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof InvocationTimeoutException || error instanceof ConnectTimeoutException
        || error instanceof TimeoutException;
  }

  @Override
  public String sizeLimit(Throwable error, Order request) {
    if (error instanceof MemoryLimitException e) {
      // This client refused the reply: "requested 2000123 bytes, maximum allowed is 1048576 bytes ..."
      Matcher m = REQUESTED.matcher(String.valueOf(e.reason));
      return SizeLimit.message("ice", "reply", m.find() ? Long.parseLong(m.group(1)) : -1, maxMessage, SERVER_FLAG);
    }
    if (error instanceof SocketException && request != null) {
      // The server drops a connection whose request is over its limit; Ice does not say why.
      long size = marshalledSize(request);
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
    return error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    communicator.destroy();
  }
}
