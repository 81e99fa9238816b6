package servers.thrift;

import contract.SampleOrder;
import contract.thrift.BadRequest;
import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import contract.tls.TlsFiles;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import servers.common.ServerTls;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.THsHaServer;
import org.apache.thrift.server.TNonblockingServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;

/**
 * Thrift echo on one of Thrift's servers (framed transport): by default the non-blocking {@link
 * TThreadedSelectorServer}; {@code --server} picks another.
 *
 * <pre>java servers.thrift.ThriftEchoServer [--host 127.0.0.1] [--port 9090] [--threads 200]
 *     [--selectors 2] [--server threaded-selector|hsha|nonblocking|threadpool] [--protocol binary|compact]
 *     [--max-frame 1048576] [--delay-us 0]</pre>
 */
public final class ThriftEchoServer {

  public static final int DEFAULT_PORT = 9090;
  /** Echo frames are ~100 bytes; anything past 1 MiB is garbage or abuse and closes the connection. */
  public static final int DEFAULT_MAX_FRAME = 1024 * 1024;

  public static void main(String[] args) {
    EchoServerMain.run("thrift", args, defaults(DEFAULT_PORT), ThriftEchoServer::start);
  }

  /** Every flag the server takes, with its default. */
  static Map<String, String> defaults(int port) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(port);
    // 200 workers: the write-up's server pool, as for the other frameworks' servers.
    defaults.put("threads", "200");
    defaults.put("selectors", "2");
    defaults.put("server", Kind.THREADED_SELECTOR.flag);
    defaults.put("protocol", WireProtocols.DEFAULT);
    defaults.put("max-frame", Integer.toString(DEFAULT_MAX_FRAME));
    return defaults;
  }

  /** Thrift's servers, as {@code --server} names them. */
  enum Kind {
    /** Selector threads for I/O, a worker pool for calls (Thrift's fastest non-blocking server). */
    THREADED_SELECTOR("threaded-selector"),
    /** Half-sync/half-async: one selector thread for I/O, a worker pool for calls. */
    HSHA("hsha"),
    /** One thread for I/O and calls alike. */
    NONBLOCKING("nonblocking"),
    /** Blocking sockets, a thread per connection from the worker pool. */
    THREADPOOL("threadpool");

    final String flag;

    Kind(String flag) {
      this.flag = flag;
    }

    static Kind of(ServerFlags flags) {
      String v = flags.oneOf("server", java.util.Arrays.stream(values()).map(k -> k.flag).toArray(String[]::new));
      return java.util.Arrays.stream(values()).filter(k -> k.flag.equals(v)).findFirst().orElseThrow();
    }
  }

  static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port, Optional<ServerTls> tls)
      throws Exception {
    String protocolName = flags.oneOf("protocol", WireProtocols.SUPPORTED.toArray(String[]::new));
    TProtocolFactory protocol = WireProtocols.factory(protocolName);
    int workers = flags.intValue("threads", 1, 10_000);
    int selectors = flags.intValue("selectors", 1, 64);
    int maxFrame = flags.intValue("max-frame", 1024, Integer.MAX_VALUE);
    Kind kind = Kind.of(flags);
    ServiceDelay delay = ServiceDelay.from(flags);
    if (tls.isPresent() || kind == Kind.THREADPOOL) {
      if (!delay.none()) {
        throw new IllegalArgumentException("--delay-us with " + (tls.isPresent() ? "TLS: Thrift's TLS server" : "--server"
            + " threadpool: Thrift's") + " TThreadPoolServer has no async processor to delay replies without holding"
            + " a thread");
      }
      if (tls.isPresent() && kind != Kind.THREADED_SELECTOR) {
        throw new IllegalArgumentException("--server " + kind.flag + " with TLS: Thrift's TLS transport is a blocking"
            + " socket, served by TThreadPoolServer alone; leave out --server");
      }
      return startBlocking(tls, host, port, protocol, workers, maxFrame, protocolName);
    }

    TNonblockingServerSocket socket = new TNonblockingServerSocket(new InetSocketAddress(host, port), 0, maxFrame);
    org.apache.thrift.TProcessor processor = delay.none() ? new MobileService.Processor<>(new Echo())
        // Thrift's async processor: the worker is free at once, the reply goes when the callback runs.
        : new MobileService.AsyncProcessor<>(new DelayedEcho(delay));
    TServer server;
    String settings;
    switch (kind) {
      case HSHA -> {
        THsHaServer.Args a = new THsHaServer.Args(socket).executorService(workerPool(workers));
        a.processor(processor).protocolFactory(protocol).transportFactory(new TFramedTransport.Factory(maxFrame));
        a.maxReadBufferBytes = 64L * maxFrame;
        server = new THsHaServer(a);
        settings = "THsHaServer, 1 selector thread, " + EchoServerMain.count(workers, "worker");
      }
      case NONBLOCKING -> {
        TNonblockingServer.Args a = new TNonblockingServer.Args(socket);
        a.processor(processor).protocolFactory(protocol).transportFactory(new TFramedTransport.Factory(maxFrame));
        a.maxReadBufferBytes = 64L * maxFrame;
        server = new TNonblockingServer(a);
        settings = "TNonblockingServer, 1 thread for I/O and calls";
      }
      default -> {
        TThreadedSelectorServer.Args a = new TThreadedSelectorServer.Args(socket)
            .selectorThreads(selectors)
            .executorService(workerPool(workers));
        a.processor(processor).protocolFactory(protocol).transportFactory(new TFramedTransport.Factory(maxFrame));
        // Bounds the memory all half-read frames may hold together.
        a.maxReadBufferBytes = 64L * maxFrame;
        server = new TThreadedSelectorServer(a);
        settings = "TThreadedSelectorServer, " + EchoServerMain.count(selectors, "selector thread") + ", "
            + EchoServerMain.count(workers, "worker");
      }
    }
    return serve(server, settings + ", " + protocolName + " protocol, framed");
  }

  /**
   * TThreadPoolServer, a thread per connection, up to --threads connections: {@code --server threadpool},
   * and TLS, whose transport is a blocking socket (TSSLTransportFactory wraps an SSLServerSocket in a
   * TServerSocket, as here, with the JDK's JSSE): Thrift's non-blocking servers have none.
   */
  private static EchoServerMain.RunningServer startBlocking(Optional<ServerTls> secure, String host, int port,
                                                            TProtocolFactory protocol, int workers, int maxFrame,
                                                            String protocolName) throws Exception {
    java.net.ServerSocket listener;
    if (secure.isPresent()) {
      ServerTls tls = secure.get();
      SSLContext context = TlsFiles.context(TlsFiles.identity(tls.cert(), tls.key()),
          tls.mutual() ? TlsFiles.certificates(tls.clientCa()) : null);
      SSLServerSocket ssl = (SSLServerSocket) context.getServerSocketFactory()
          .createServerSocket(port, 1024, InetAddress.getByName(host));
      ssl.setNeedClientAuth(tls.mutual());
      listener = ssl;
    } else {
      listener = new java.net.ServerSocket(port, 1024, InetAddress.getByName(host));
    }
    TThreadPoolServer.Args serverArgs = new TThreadPoolServer.Args(new TServerSocket(listener))
        .processor(new MobileService.Processor<>(new Echo()))
        .protocolFactory(protocol)
        .transportFactory(new TFramedTransport.Factory(maxFrame))
        .minWorkerThreads(Math.min(workers, 16))
        .maxWorkerThreads(workers);
    TThreadPoolServer server = new TThreadPoolServer(serverArgs);
    return serve(server, "TThreadPoolServer, a thread per connection, up to " + EchoServerMain.count(workers, "worker") + ", " + protocolName
        + " protocol, framed" + (secure.isPresent() ? ", TLS" : ""));
  }

  private static EchoServerMain.RunningServer serve(TServer server, String settings) throws Exception {
    Thread serving = new Thread(server::serve, "thrift-serve");
    serving.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isServing()) {
      if (!serving.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("Thrift server did not start serving");
      }
      Thread.sleep(5);
    }
    return EchoServerMain.RunningServer.naming(settings, () -> {
      server.stop();
      serving.join(5_000);
    });
  }

  private static ExecutorService workerPool(int threads) {
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> new Thread(r, "thrift-worker-" + n.incrementAndGet()));
  }

  static final class Echo implements MobileService.Iface {
    @Override
    public Order hello(Order order) {
      Served.replied(Served.call());
      return order;
    }

    @Override
    public List<Order> listOrders(int count) throws BadRequest {
      Served.call();
      return orders(count);
    }
  }

  static List<Order> orders(int count) throws BadRequest {
    String bad = SampleOrder.badCount(count);
    if (bad != null) {
      throw new BadRequest(bad);
    }
    return SampleOrder.list(Order::new, count);
  }

  /** --delay-us: the reply after the service time, from the timer thread. */
  static final class DelayedEcho implements MobileService.AsyncIface {
    private final ServiceDelay delay;

    DelayedEcho(ServiceDelay delay) {
      this.delay = delay;
    }

    @Override
    public void hello(Order order, AsyncMethodCallback<Order> reply) {
      long arrived = Served.call();
      delay.then(() -> {
        reply.onComplete(order);
        Served.replied(arrived);
      });
    }

    @Override
    public void listOrders(int count, AsyncMethodCallback<List<Order>> reply) {
      Served.call();
      try {
        reply.onComplete(orders(count));
      } catch (BadRequest e) {
        reply.onError(e);
      }
    }
  }
}
