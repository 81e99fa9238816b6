package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.frameworks.Frameworks;
import protocols.rpc.HostPort;

/**
 * A server whose first connection takes longer than Dubbo's 3-s connect.timeout (a fresh JVM on a
 * saturated CI machine) but less than the call timeout is not a failure: Triple's client waited for
 * the server's HTTP/2 preface only 3 s and failed a clean-clone CI with "connection preface timeout".
 */
class SlowFirstConnectionTest {
  private static final long HELD_MILLIS = 3_200;

  @Test
  void tripleWaitsForASlowServersPrefaceUpToTheCallTimeout() throws Exception {
    var framework = Frameworks.byName("triple");
    // A 10-s call timeout leaves a busy machine room for the held 3.2 s and a fresh server's first preface.
    LoadParams params = new LoadParams(Map.of("timeout", "10000"));
    try (EmbeddedServer server = EmbeddedServer.start("triple", framework.serverMainClass(), framework.serverArgs(params));
         HeldProxy proxy = new HeldProxy(server.address())) {
      long millis = EchoRun.probe(framework, params, proxy.address(), "held " + HELD_MILLIS + " ms");
      assertTrue(millis >= HELD_MILLIS, "the reply came through the held connection: " + millis + " ms");
    }
  }

  /** Accepts on loopback, holds each connection {@link #HELD_MILLIS} ms, then relays it to {@code upstream}. */
  private static final class HeldProxy implements AutoCloseable {
    private final ServerSocket listener;

    HeldProxy(HostPort upstream) throws IOException {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      daemon(() -> {
        while (!listener.isClosed()) {
          try {
            Socket client = listener.accept();
            daemon(() -> relay(client, upstream));
          } catch (IOException closed) {
            return;
          }
        }
      });
    }

    private static void relay(Socket client, HostPort upstream) {
      try (client; Socket server = new Socket()) {
        Thread.sleep(HELD_MILLIS);
        server.connect(new InetSocketAddress(upstream.host(), upstream.port()), 5_000);
        Thread back = daemon(() -> copy(server, client));
        copy(client, server);
        back.join(10_000);
      } catch (IOException | InterruptedException e) {
        // the client or the server went away: the test's own assertion says what it saw
      }
    }

    private static Thread daemon(Runnable body) {
      Thread t = new Thread(body, "held-proxy");
      t.setDaemon(true);
      t.start();
      return t;
    }

    private static void copy(Socket from, Socket to) {
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        in.transferTo(out);
        to.shutdownOutput();
      } catch (IOException e) {
        // closed
      }
    }

    HostPort address() {
      return new HostPort("127.0.0.1", listener.getLocalPort());
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }
}
