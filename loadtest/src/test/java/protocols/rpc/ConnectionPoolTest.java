package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectionPoolTest {
  private final AtomicInteger opened = new AtomicInteger();
  private final List<Integer> closed = new ArrayList<>();

  @Test
  void unlimitedPoolGrowsToConcurrentCallsAndReusesConnections() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(opened::incrementAndGet, closed::add, 0);
    Integer a = pool.acquire().join();
    Integer b = pool.acquire().join();
    assertEquals(2, pool.size());
    pool.release(a);
    assertSame(a, pool.acquire().join());
    pool.release(b);
    assertEquals(2, opened.get());
  }

  @Test
  void limitedPoolMakesCallsWaitForAFreeConnection() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(opened::incrementAndGet, closed::add, 1);
    Integer a = pool.acquire().join();
    CompletableFuture<Integer> waiting = pool.acquire();
    assertFalse(waiting.isDone());
    pool.release(a);
    assertSame(a, waiting.join());
    assertEquals(1, opened.get());
  }

  /** A waiter that gave up (its call timed out in the queue) must not swallow the next connection released. */
  @Test
  void aCancelledWaiterLeavesTheQueueAndTheReleasedConnectionServesTheNextCall() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(opened::incrementAndGet, closed::add, 2);
    Integer a = pool.acquire().join();
    Integer b = pool.acquire().join();
    for (int i = 0; i < 5; i++) {
      assertTrue(pool.acquire().cancel(false));
    }
    pool.release(a);
    pool.release(b);
    CompletableFuture<Integer> next = pool.acquire();
    assertTrue(next.isDone(), "a released connection is idle again, not given to a caller that left");
    assertTrue(pool.acquire().isDone());
    assertEquals(2, opened.get());
  }

  @Test
  void discardedConnectionIsClosedAndAWaiterGetsANewOne() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(opened::incrementAndGet, closed::add, 1);
    Integer broken = pool.acquire().join();
    CompletableFuture<Integer> waiting = pool.acquire();
    pool.discard(broken);
    assertEquals(List.of(broken), closed);
    assertEquals(2, waiting.join());
    assertEquals(1, pool.size());
  }

  @Test
  void failedOpenFailsTheCallAndFreesItsSlot() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(() -> {
      throw new java.io.IOException("refused");
    }, closed::add, 1);
    assertTrue(pool.acquire().isCompletedExceptionally());
    assertEquals(0, pool.size());
  }

  @Test
  void closeClosesIdleConnectionsAndFailsWaiters() {
    ConnectionPool<Integer> pool = new ConnectionPool<>(opened::incrementAndGet, closed::add, 1);
    Integer a = pool.acquire().join();
    CompletableFuture<Integer> waiting = pool.acquire();
    pool.close();
    assertTrue(waiting.isCompletedExceptionally());
    assertEquals(List.of(a), closed, "the connection in use is closed with the pool");
    pool.release(a); // released after close: not kept, not closed twice
    pool.discard(a);
    assertEquals(List.of(a), closed);
    assertEquals(0, pool.size());
  }
}
