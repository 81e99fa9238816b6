package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A client's hops as the protocol table says them, and which connection a call on a loop takes. */
class ClientPathTest {

  @Test
  void syncModeAddsTheSyncPoolsThreadEachWay() {
    ClientPath path = new ClientPath("one per loop", "one per Gatling event loop", 1, "the reply to the user's loop");
    assertEquals("one per loop", path.layout(0), "the framework's layout when -Dconnections is not given");
    assertEquals("4", path.layout(4));
    assertEquals(1, path.hops(InvocationMode.ASYNC));
    assertEquals(1, path.hops(InvocationMode.CALLBACK));
    assertEquals(3, path.hops(InvocationMode.SYNC));
    assertEquals("1 hop per call: the reply to the user's loop", path.describe(InvocationMode.ASYNC));
    assertTrue(path.describe(InvocationMode.SYNC).startsWith("3 hops per call: "), path.describe(InvocationMode.SYNC));
  }

  @Test
  void aCallOnALoopWithAConnectionOfItsOwnTakesItAndNoTurn() throws Exception {
    EventLoopGroup group = GatlingLoops.newGroup();
    try {
      EventLoop[] loops = GatlingLoops.of(group);
      AtomicInteger turns = new AtomicInteger();
      for (int i = 0; i < loops.length; i++) {
        int own = i;
        CompletableFuture<Integer> picked = new CompletableFuture<>();
        loops[i].execute(() -> picked.complete(GatlingLoops.connectionFor(loops, loops.length, turns)));
        assertEquals(own, picked.get(5, TimeUnit.SECONDS), "loop " + i + " takes its own connection");
      }
      assertEquals(0, turns.get(), "no shared counter touched");
      // Off the loops: the connections in turn.
      assertEquals(0, GatlingLoops.connectionFor(loops, loops.length, turns));
      assertEquals(1 % loops.length, GatlingLoops.connectionFor(loops, loops.length, turns));
      assertEquals(2, turns.get());
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }
}
