package servers.common;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The life cycle every echo server shares: parse flags, check the port, start, print one ready line
 * (then the calls it served, {@link Served}), stop cleanly on SIGTERM. Errors are one line on stderr and exit code 2 (bad flags) or 1 (start failed).
 */
public final class EchoServerMain {

  /** The line the load generator waits for: {@code READY <framework> <host>:<port>[ tls[ mutual]]}. */
  public static final String READY_PREFIX = "READY ";

  /** The line that names a server's settings, before its ready line: {@code SETTINGS <framework> <settings>}. */
  public static final String SETTINGS_PREFIX = "SETTINGS ";

  /** A started server. */
  public interface RunningServer {
    void stop() throws Exception;

    /** What it runs, as the framework set it up (server kind, pools, wire format): one line, or null. */
    default String settings() {
      return null;
    }

    /** {@code server}, naming {@code settings}. */
    static RunningServer naming(String settings, RunningServer server) {
      return new RunningServer() {
        @Override
        public void stop() throws Exception {
          server.stop();
        }

        @Override
        public String settings() {
          return settings;
        }
      };
    }
  }

  /** Starts a framework's server from its flags, with TLS ({@link ServerTls}) when they ask for it. */
  public interface TlsStarter {
    RunningServer start(ServerFlags flags, String host, int port, Optional<ServerTls> tls) throws Exception;
  }

  private EchoServerMain() {}

  /** Flags every server takes, before the framework's own. */
  public static Map<String, String> commonDefaults(int defaultPort) {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("host", "127.0.0.1");
    d.put("port", Integer.toString(defaultPort));
    d.put(ServiceDelay.FLAG, "0");
    d.put(Served.METRICS_FLAG, "0");
    ServerTls.addDefaults(d);
    return d;
  }

  public static void run(String framework, String[] args, Map<String, String> defaults, TlsStarter starter) {
    PrintStream stdout = ServerLogging.install();
    ServerFlags flags;
    String host;
    int port;
    Optional<ServerTls> tls;
    try {
      flags = ServerFlags.parse(args, defaults);
      host = flags.get("host");
      port = flags.intValue("port", 1, 65535);
      checkPortFree(host, port);
      tls = ServerTls.from(flags);
      int metricsPort = flags.intValue(Served.METRICS_FLAG, 0, 65535);
      if (metricsPort > 0) {
        checkPortFree(host, metricsPort);
      }
    } catch (IllegalArgumentException e) {
      fail(2, framework + " echo server: " + e.getMessage());
      return;
    }
    RunningServer server;
    try {
      server = starter.start(flags, host, port, tls);
    } catch (Exception e) {
      fail(1, framework + " echo server: could not start on " + host + ":" + port + ": " + rootMessage(e));
      return;
    }
    int metricsPort = flags.intValue(Served.METRICS_FLAG, 0, 65535);
    if (metricsPort > 0) {
      try {
        Served.serve(framework, host, metricsPort);
      } catch (IOException | RuntimeException e) {
        fail(1, framework + " echo server: could not serve metrics on " + host + ":" + metricsPort + ": " + rootMessage(e));
        return;
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.stop();
      } catch (Exception e) {
        System.err.println(framework + " echo server: error while stopping: " + rootMessage(e));
      } finally {
        Served.print(stdout);
        stopped.countDown();
      }
    }, "echo-server-stop"));
    String settings = server.settings();
    if (settings != null) {
      stdout.println(SETTINGS_PREFIX + framework + " " + settings);
    }
    stdout.println(READY_PREFIX + framework + " " + host + ":" + port + tls.map(t -> " " + t.describe()).orElse(""));
    stdout.flush();
    Served.report(stdout);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Fails fast with a clear message rather than a framework's bind stack trace. */
  static void checkPortFree(String host, int port) {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (IOException e) {
      throw new IllegalArgumentException("unknown host '" + host + "'");
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(address, port));
    } catch (IOException e) {
      throw new IllegalArgumentException("port " + port + " on " + host + " is already in use or cannot be bound ("
          + e.getMessage() + ")");
    }
  }

  /** A count as the SETTINGS line says it: "1 thread", "8 threads". */
  public static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  public static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = root.getMessage();
    return root.getClass().getSimpleName() + (msg == null ? "" : ": " + msg.lines().findFirst().orElse(""));
  }

  private static void fail(int code, String line) {
    System.err.println(line);
    System.err.flush();
    // halt: frameworks leave non-daemon threads behind after a failed start.
    Runtime.getRuntime().halt(code);
  }
}
