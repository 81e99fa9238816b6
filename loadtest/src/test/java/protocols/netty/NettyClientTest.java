package protocols.netty;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.netty.EchoFrames;
import contract.pojo.Order;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.rpc.RpcSettings;

/** The ceiling's client against a loopback listener that accepts and never answers. */
class NettyClientTest {

  @Test
  void aClosedConnectionFailsOnlyItsOwnCalls() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> accepted = new ArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          for (int i = 0; i < 2; i++) {
            accepted.add(listener.accept());
          }
        } catch (Exception ignored) {
          // listener closed
        }
      });
      acceptor.start();
      RpcSettings settings = RpcSettings.defaults(listener.getLocalPort()).withConnections(2)
          .withTimeout(Duration.ofSeconds(5));
      try (NettyClient client = new NettyClient(settings, EchoFrames.DEFAULT_MAX_FRAME, null)) {
        acceptor.join(5_000);
        // Calls go to the connections in turn: the first to connection 0, the second to connection 1.
        CompletableFuture<Order> first = client.hello(NettyDsl.order(1)).toCompletableFuture();
        CompletableFuture<Order> second = client.hello(NettyDsl.order(2)).toCompletableFuture();
        for (Socket s : accepted) {
          s.setSoTimeout(5_000);
          assertTrue(s.getInputStream().read() >= 0, "the call reached the server: it is pending there");
        }
        accepted.get(0).close(); // the server side of connection 0 goes away
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
            () -> first.get(2, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("connection closed"), e.getCause().toString());
        Thread.sleep(300);
        assertFalse(second.isDone(), "a call on the other, open connection is still waiting for its reply");
      } finally {
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }
}
