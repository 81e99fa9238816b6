package protocols.thrift;

import contract.tls.TlsFiles;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.async.TAsyncClient;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TNonblockingTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import protocols.rpc.ConnectionPool;
import protocols.rpc.HostPort;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcSettings;
import protocols.rpc.SizeLimit;

/**
 * Thrift clients over framed transport. A Thrift client carries one call at a time, so both the
 * async clients (non-blocking sockets on {@link TAsyncClientManager} selector threads) and the
 * blocking ones are pooled: one connection per concurrent call, or at most {@code connections}.
 */
public final class ThriftClient implements RpcClient {
  private static final String SERVER_FLAG = "--max-frame";
  /** TFramedTransport: "Frame size (2000116) larger than max length (1048576)!". */
  private static final Pattern FRAME_TOO_LARGE = Pattern.compile("Frame size \\((\\d+)\\) larger than max length");
  private final RpcSettings settings;
  private final TProtocolFactory protocol;
  private final TAsyncClientManager[] managers;
  /** The loops path's connections ({@link ThriftProtocol.AsyncPath#LOOPS}), else null. */
  private final FramedConnections framed;
  private final AtomicInteger nextManager = new AtomicInteger();
  private final AtomicInteger nextTarget = new AtomicInteger();
  private final Map<Class<?>, ConnectionPool<?>> pools = new ConcurrentHashMap<>();
  private final int maxFrame;
  /** The JSSE context of a TLS client, or null. */
  private final SSLContext tls;

  /** Why the async client cannot speak TLS. */
  static final String NO_ASYNC_TLS = "Thrift's Java async client (TAsyncClient on a TNonblockingSocket) has no TLS;"
      + " its blocking client has: run it in sync mode (-Dmode=sync, .sync())";

  ThriftClient(RpcSettings settings, TProtocolFactory protocol, int maxFrame) {
    this(settings, protocol, maxFrame, ThriftProtocol.AsyncPath.MANAGER, null);
  }

  /** @param gatlingLoops the loops the loops path runs on (Gatling's, or the plain driver's); or null */
  ThriftClient(RpcSettings settings, TProtocolFactory protocol, int maxFrame, ThriftProtocol.AsyncPath path,
               io.netty.channel.EventLoopGroup gatlingLoops) {
    this.settings = settings;
    if (settings.tls() != null && settings.mode() != protocols.rpc.InvocationMode.SYNC) {
      throw new IllegalArgumentException("thrift: " + NO_ASYNC_TLS);
    }
    if (path == ThriftProtocol.AsyncPath.LOOPS && settings.connections() > 0) {
      throw new IllegalArgumentException("thrift: the loops path (" + path.label() + ") opens one connection per call"
          + " in flight on each event loop; -Dconnections limits Thrift's own async client ("
          + ThriftProtocol.AsyncPath.MANAGER.label() + ")");
    }
    this.tls = settings.viaTls().map(t -> TlsFiles.context(t.identity().orElse(null), t.trusted().orElse(null)))
        .orElse(null);
    this.protocol = protocol;
    this.maxFrame = maxFrame;
    framed = path == ThriftProtocol.AsyncPath.LOOPS ? new FramedConnections(gatlingLoops, settings.targets(), protocol,
        maxFrame, settings.timeoutMillis()) : null;
    // One selector thread per core, as Gatling has one event loop per core; none on the loops path.
    int selectors = framed != null ? 0 : Math.max(1, Runtime.getRuntime().availableProcessors());
    managers = new TAsyncClientManager[selectors];
    try {
      for (int i = 0; i < selectors; i++) {
        managers[i] = new TAsyncClientManager();
      }
      checkConnects();
    } catch (IOException | TTransportException e) {
      close();
      throw new IllegalStateException("could not start the Thrift client: " + e.getMessage(), e);
    }
  }

  /** Fails at start, not on the first call, when the server is not there. */
  private void checkConnects() throws TTransportException {
    for (HostPort target : settings.targets()) {
      open(target).close();
    }
  }

  /** A framed transport to {@code target}, open: over TLS (the JDK's JSSE, the server's name checked) if asked. */
  private TTransport open(HostPort target) throws TTransportException {
    int timeout = (int) settings.timeoutMillis();
    if (tls == null) {
      TTransport transport = new TFramedTransport(new TSocket(configuration(maxFrame), target.host(), target.port(),
          timeout));
      transport.open();
      return transport;
    }
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(target.host(), target.port()), timeout);
      String name = settings.tls().serverName().orElse(target.host());
      SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, name, target.port(), true);
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      socket.setSoTimeout(timeout);
      socket.setTcpNoDelay(true);
      socket.startHandshake();
      return new TFramedTransport(new TSocket(socket), maxFrame);
    } catch (IOException e) {
      try {
        plain.close();
      } catch (IOException ignored) {
        // already failing
      }
      throw new TTransportException(TTransportException.NOT_OPEN, "TLS to " + target + ": " + e.getMessage(), e);
    }
  }

  /** The loops path's connections, or null on Thrift's own async client. */
  FramedConnections framed() {
    return framed;
  }

  /** Whether calls are made async (async and callback modes), not on the sync pool. */
  boolean asyncCalls() {
    return settings.mode() != protocols.rpc.InvocationMode.SYNC;
  }

  /**
   * Where the next connection goes: Thrift has no discovery or balancing of its own, so the pool's
   * connections are spread over the providers in turn, and a connection that failed is replaced by
   * one to the next provider (a dead provider costs the calls that try it until it is back).
   */
  private HostPort nextTarget() {
    List<HostPort> targets = settings.targets();
    return targets.get(Math.floorMod(nextTarget.getAndIncrement(), targets.size()));
  }

  /**
   * A generated async client with its socket: Thrift's async client cannot close its own transport,
   * and neither a failed call nor its manager's timeout closes it, so the pool closes the socket.
   */
  record Async<A extends TAsyncClient>(A client, TNonblockingSocket socket) {
  }

  /**
   * The pool of {@code type}'s async clients (a generated {@code Service.AsyncClient}), made on first
   * use; a Thrift client carries one call at a time, so there is one connection per concurrent call.
   * A client that failed or timed out is discarded with its socket closed.
   */
  @SuppressWarnings("unchecked")
  <A extends TAsyncClient> ConnectionPool<Async<A>> asyncPool(Class<A> type) {
    Constructor<A> make = constructor(type, TProtocolFactory.class, TAsyncClientManager.class,
        TNonblockingTransport.class);
    return (ConnectionPool<Async<A>>) pools.computeIfAbsent(type, t -> new ConnectionPool<Async<A>>(() -> {
      if (tls != null) {
        throw new TTransportException(TTransportException.NOT_OPEN, "thrift: " + NO_ASYNC_TLS);
      }
      HostPort target = nextTarget();
      TNonblockingSocket socket = new TNonblockingSocket(target.host(), target.port(), (int) settings.timeoutMillis());
      try {
        TAsyncClientManager manager = managers[Math.floorMod(nextManager.getAndIncrement(), managers.length)];
        A client = newInstance(make, protocol, manager, socket);
        client.setTimeout(settings.timeoutMillis());
        return new Async<>(client, socket);
      } catch (TTransportException | RuntimeException e) {
        socket.close();
        throw e;
      }
    }, c -> c.socket().close(), settings.connections()));
  }

  /** The pool of {@code type}'s blocking clients (a generated {@code Service.Client}), made on first use. */
  @SuppressWarnings("unchecked")
  <B extends TServiceClient> ConnectionPool<B> blockingPool(Class<B> type) {
    Constructor<B> make = constructor(type, TProtocol.class);
    return (ConnectionPool<B>) pools.computeIfAbsent(type, t -> new ConnectionPool<B>(() -> {
      TTransport transport = open(nextTarget());
      return newInstance(make, protocol.getProtocol(transport));
    }, c -> c.getInputProtocol().getTransport().close(), settings.connections()));
  }

  private static <T> Constructor<T> constructor(Class<T> type, Class<?>... parameters) {
    try {
      return type.getConstructor(parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(type.getName() + " is not a Thrift-generated client: it has no public "
          + type.getSimpleName() + "(" + String.join(", ", java.util.Arrays.stream(parameters)
          .map(Class::getSimpleName).toList()) + ")");
    }
  }

  private static <T> T newInstance(Constructor<T> make, Object... args) throws TTransportException {
    try {
      return make.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new TTransportException("could not make a " + make.getDeclaringClass().getName() + ": " + e);
    }
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof TTransportException && error.getCause() instanceof SocketTimeoutException;
  }

  /** Thrift's limits for a client whose frames may be up to {@code maxFrame} bytes. */
  static TConfiguration configuration(int maxFrame) {
    return new TConfiguration(Math.max(maxFrame, TConfiguration.DEFAULT_MAX_MESSAGE_SIZE), maxFrame,
        TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  @Override
  public String sizeLimit(Throwable error, Object request) {
    if (!(error instanceof TTransportException)) {
      return null;
    }
    Matcher m = FRAME_TOO_LARGE.matcher(String.valueOf(error.getMessage()));
    if (m.find()) { // this client refused the reply (blocking client; the async one has no limit)
      return SizeLimit.message("thrift", "reply", Long.parseLong(m.group(1)), maxFrame, SERVER_FLAG);
    }
    if (!(request instanceof TBase<?, ?> struct)) {
      return null;
    }
    // The server closes a connection whose frame is over its limit; Thrift does not say why.
    long size = frameSize(struct);
    return size > maxFrame ? SizeLimit.message("thrift", "request", size, maxFrame, SERVER_FLAG) : null;
  }

  /** About the request's frame as this client writes it (the struct as the call's only argument). */
  private long frameSize(TBase<?, ?> request) {
    try {
      TMemoryBuffer buffer = new TMemoryBuffer(new TConfiguration(Integer.MAX_VALUE, Integer.MAX_VALUE,
          TConfiguration.DEFAULT_RECURSION_DEPTH), 1024);
      TProtocol out = protocol.getProtocol(buffer);
      out.writeMessageBegin(new TMessage("call", TMessageType.CALL, 0));
      request.write(out);
      out.writeMessageEnd();
      return buffer.length();
    } catch (TException e) {
      return -1;
    }
  }

  @Override
  public String errorCode(Throwable error) {
    if (error instanceof TTransportException e) {
      return "thrift transport " + e.getType();
    }
    if (error instanceof TApplicationException e) {
      return "thrift application " + e.getType();
    }
    if (error instanceof TProtocolException e) {
      return "thrift protocol " + e.getType();
    }
    return error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    pools.values().forEach(ConnectionPool::close);
    if (framed != null) {
      framed.close();
    }
    for (TAsyncClientManager m : managers) {
      if (m != null) {
        m.stop();
      }
    }
  }
}
