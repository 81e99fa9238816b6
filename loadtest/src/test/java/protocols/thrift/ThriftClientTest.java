package protocols.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.thrift.Order;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import protocols.lab.EmbeddedServer;
import protocols.rpc.RpcMethod;
import protocols.lab.Sockets;
import servers.thrift.ThriftEchoServer;
import protocols.thrift.lab.ThriftFramework;

/** The Thrift client against a real Thrift server that is killed and restarted while users call. */
class ThriftClientTest {
  private static final int USERS = 5;

  /**
   * Thrift closes a client's socket itself when a call fails or times out (TAsyncClient.onError), so
   * a kill leaves no connection behind; the pool must close the others, idle or in use, when it closes.
   */
  @Test
  void aKilledServersConnectionsAreClosedAndTheRestWithTheClient() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of());
         ThriftClient client = ThriftDsl.thrift.target(server.address().toString()).timeout(Duration.ofSeconds(1))
             .newClient()) {
      RpcMethod<ThriftClient, Order, Order> echo = ThriftFramework.FRAMEWORK.echo(client);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong ok = new AtomicLong();
      List<Thread> users = new ArrayList<>();
      for (int u = 0; u < USERS; u++) {
        Thread t = new Thread(() -> {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // bounded, whatever happens
          for (long i = 0; !stop.get() && System.nanoTime() < deadline; i++) {
            Order order = ThriftDsl.order(i);
            try {
              if (order.equals(echo.callAsync(client, order).toCompletableFuture().get(2, TimeUnit.SECONDS))) {
                ok.incrementAndGet();
              }
            } catch (Exception failed) {
              sleep(20); // as the KO pause: a dead server must not be hammered
            }
          }
        }, "thrift-user-" + u);
        users.add(t);
        t.start();
      }
      sleep(1_000);
      long beforeKill = ok.get();
      server.kill();
      sleep(1_000);
      server.restart();
      long atRestart = ok.get();
      sleep(1_500);
      stop.set(true);
      for (Thread t : users) {
        t.join(10_000);
      }
      assertTrue(beforeKill > 0 && ok.get() > atRestart, "calls worked before the kill and after the restart: "
          + beforeKill + ", " + atRestart + ", " + ok.get());
      sleep(300); // the last discards close their sockets
      int sockets = Sockets.toPort(ProcessHandle.current().pid(), server.address().port());
      assertTrue(sockets <= USERS, sockets + " sockets to the server for " + USERS + " users: the connections the kill"
          + " broke were left open");
      assertEquals(sockets, poolSize(client), "every open socket is a pooled client's");
      client.close();
      sleep(300);
      assertEquals(0, Sockets.toPort(ProcessHandle.current().pid(), server.address().port()),
          "closing the client closes every pooled connection");
    }
  }

  /**
   * -Dconnections=2 under a stall: calls queued for a connection time out; once the server answers
   * again, every call goes through (before, each queued call that timed out kept a connection forever).
   */
  @Test
  void aLimitedPoolRecoversFromAStallWhoseQueuedCallsTimedOut() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of());
         ThriftClient client = ThriftDsl.thrift.target(server.address().toString()).timeout(Duration.ofMillis(300))
             .connections(2).newClient()) {
      RpcMethod<ThriftClient, Order, Order> echo = ThriftFramework.FRAMEWORK.echo(client);
      assertEquals(ThriftDsl.order(1), echo.callAsync(client, ThriftDsl.order(1)).toCompletableFuture().get(5, TimeUnit.SECONDS));
      server.signal("STOP");
      List<java.util.concurrent.CompletableFuture<Order>> stalled = new ArrayList<>();
      for (int i = 0; i < 6; i++) { // 2 on the connections, 4 queued behind them
        stalled.add(echo.callAsync(client, ThriftDsl.order(i)).toCompletableFuture());
      }
      sleep(100);
      stalled.subList(2, 6).forEach(f -> f.cancel(false)); // as the run's timeout cancels a call it gave up on
      for (var f : stalled.subList(0, 2)) {
        assertTrue(assertThrowsAny(f), "a call on a stalled connection fails (Thrift's own timeout)");
      }
      server.signal("CONT");
      for (int i = 0; i < 10; i++) {
        Order order = ThriftDsl.order(100 + i);
        assertEquals(order, echo.callAsync(client, order).toCompletableFuture().get(5, TimeUnit.SECONDS),
            "call " + i + " after the stall");
      }
      assertTrue(poolSize(client) <= 2, "at most the 2 connections asked for: " + poolSize(client));
    }
  }

  /**
   * The loops path (-Dthrift.client=loops): calls on event loops over the lab's framed connections, one
   * per call in flight; a kill fails the calls in flight, the calls after the restart go through on new
   * connections, a stall gives timeouts and closes their connections, and closing the client closes them all.
   */
  @Test
  void theLoopsPathCallsOnItsLoopsRecoversFromAKillAndAStallAndClosesItsConnections() throws Exception {
    io.netty.channel.EventLoopGroup loops = protocols.rpc.GatlingLoops.newGroup();
    try (EmbeddedServer server = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of());
         ThriftClient client = ThriftDsl.thrift.target(server.address().toString()).timeout(Duration.ofMillis(500))
             .asyncPath(ThriftProtocol.AsyncPath.LOOPS).newClient(loops)) {
      RpcMethod<ThriftClient, Order, Order> echo = ThriftFramework.FRAMEWORK.echo(client);
      assertTrue(echo.enforcesTimeout(), "each call times out on its loop: the core sets no timer of its own");
      List<java.util.concurrent.CompletableFuture<Order>> first = new ArrayList<>();
      for (int i = 0; i < USERS; i++) {
        first.add(echo.callAsync(client, ThriftDsl.order(i)).toCompletableFuture());
      }
      for (int i = 0; i < USERS; i++) {
        assertEquals(ThriftDsl.order(i), first.get(i).get(5, TimeUnit.SECONDS));
      }
      int opened = client.framed().size();
      assertTrue(opened >= 1 && opened <= USERS, opened + " connections for " + USERS + " calls at once");
      // The reply completes on a loop, the connection idle again: a call made there reuses it.
      Order next = ThriftDsl.order(42);
      java.util.concurrent.CompletableFuture<Order> chained = echo.callAsync(client, ThriftDsl.order(41))
          .toCompletableFuture().thenCompose(r -> echo.callAsync(client, next));
      assertEquals(next, chained.get(5, TimeUnit.SECONDS));
      assertEquals(opened, client.framed().size(), "a call made on the reply's loop took an idle connection");

      server.kill();
      assertTrue(assertThrowsAny(echo.callAsync(client, ThriftDsl.order(7)).toCompletableFuture()),
          "a call to a dead server fails");
      server.restart();
      Order afterRestart = ThriftDsl.order(8);
      assertEquals(afterRestart, echo.callAsync(client, afterRestart).toCompletableFuture().get(5, TimeUnit.SECONDS));

      server.signal("STOP");
      java.util.concurrent.CompletableFuture<Order> stalled = echo.callAsync(client, ThriftDsl.order(9))
          .toCompletableFuture();
      java.util.concurrent.ExecutionException timedOut = org.junit.jupiter.api.Assertions.assertThrows(
          java.util.concurrent.ExecutionException.class, () -> stalled.get(5, TimeUnit.SECONDS));
      assertTrue(timedOut.getCause() instanceof java.util.concurrent.TimeoutException, String.valueOf(timedOut));
      server.signal("CONT");
      Order afterStall = ThriftDsl.order(10);
      assertEquals(afterStall, echo.callAsync(client, afterStall).toCompletableFuture().get(5, TimeUnit.SECONDS));
      client.close();
      sleep(300);
      assertEquals(0, Sockets.toPort(ProcessHandle.current().pid(), server.address().port()),
          "closing the client closes every connection");
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** A request without the halves cannot run on the loops path: one line at prepare, not a failure per call. */
  @Test
  void theLoopsPathRefusesARequestWithoutItsHalvesAndALimitOnConnections() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start("thrift", ThriftEchoServer.class.getName(), List.of());
         ThriftClient client = ThriftDsl.thrift.target(server.address().toString())
             .asyncPath(ThriftProtocol.AsyncPath.LOOPS).newClient()) {
      RpcMethod<ThriftClient, Order, Order> noHalves = ThriftDsl.thrift("echo")
          .client(contract.thrift.MobileService.AsyncClient.class).call(contract.thrift.MobileService.AsyncClient::hello)
          .calls();
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> noHalves.prepare(client));
      assertTrue(e.getMessage().contains(".halves("), e.getMessage());
    }
    IllegalArgumentException limited = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> ThriftDsl.thrift.asyncPath(ThriftProtocol.AsyncPath.LOOPS).connections(2).newClient());
    assertTrue(limited.getMessage().contains("-Dconnections"), limited.getMessage());
  }

  private static boolean assertThrowsAny(java.util.concurrent.CompletableFuture<?> f) {
    try {
      f.get(5, TimeUnit.SECONDS);
      return false;
    } catch (Exception e) {
      return true;
    }
  }

  private static int poolSize(ThriftClient client) {
    return client.asyncPool(contract.thrift.MobileService.AsyncClient.class).size();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
