package protocols.rpc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A pool of connections (or clients) for frameworks whose client carries one call at a time, such as
 * Thrift's. Without a limit it grows to one connection per concurrent call, i.e. one per virtual user
 * in a closed-loop run; with a limit, calls wait for a free connection. A connection that failed is
 * discarded (closed), never reused; closing the pool closes every connection, in use or idle.
 */
public final class ConnectionPool<C> implements AutoCloseable {

  /** Opens a connection; may throw. */
  @FunctionalInterface
  public interface Factory<C> {
    C open() throws Exception;
  }

  private final Factory<C> factory;
  private final Consumer<C> closer;
  private final int max;
  private final Deque<C> idle = new ArrayDeque<>();
  /** Connections handed out and not yet released or discarded. */
  private final Set<C> inUse = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Deque<CompletableFuture<C>> waiting = new ArrayDeque<>();
  private int open;
  private boolean closed;

  /** @param max most connections open at once; 0 for no limit */
  public ConnectionPool(Factory<C> factory, Consumer<C> closer, int max) {
    this.factory = factory;
    this.closer = closer;
    this.max = max;
  }

  /**
   * An idle connection, a new one, or, at the limit, the next one released. A caller that stops
   * waiting cancels the returned future: it leaves the queue, and no connection is handed to it.
   */
  public CompletableFuture<C> acquire() {
    synchronized (this) {
      if (closed) {
        return CompletableFuture.failedFuture(new IllegalStateException("connection pool closed"));
      }
      C c = idle.pollFirst();
      if (c != null) {
        inUse.add(c);
        return CompletableFuture.completedFuture(c);
      }
      if (max > 0 && open >= max) {
        CompletableFuture<C> w = new CompletableFuture<>();
        waiting.addLast(w);
        w.whenComplete((r, e) -> {
          if (w.isCancelled()) {
            leave(w);
          }
        });
        return w;
      }
      open++;
    }
    return openOne();
  }

  private synchronized void leave(CompletableFuture<C> waiter) {
    waiting.remove(waiter);
  }

  /** Returns a healthy connection for reuse: to the first caller still waiting, else to the idle ones. */
  public void release(C connection) {
    while (true) {
      CompletableFuture<C> next;
      synchronized (this) {
        if (closed) {
          return; // closed with the pool
        }
        next = waiting.pollFirst();
        if (next == null) {
          inUse.remove(connection);
          idle.addFirst(connection);
          return;
        }
      }
      if (next.complete(connection)) {
        return;
      }
      // that caller gave up (cancelled) between the poll and now: the next one, or idle
    }
  }

  /**
   * Returns a healthy connection, running {@code first} (the reply's completion) before a waiting
   * caller's send on it, but after the connection is idle again when nobody waits: so the caller whose
   * reply it is finds it idle for its next call, and no other call's send is timed as part of this one.
   */
  public void release(C connection, Runnable first) {
    boolean handOff;
    synchronized (this) {
      handOff = !closed && !waiting.isEmpty();
      if (!handOff && !closed) {
        inUse.remove(connection);
        idle.addFirst(connection);
      }
    }
    first.run();
    if (handOff) {
      release(connection);
    }
  }

  /** Closes a connection that failed; a waiting call gets a new one. */
  public void discard(C connection) {
    CompletableFuture<C> next;
    synchronized (this) {
      if (closed) {
        return; // closed with the pool
      }
      inUse.remove(connection);
      next = waiting.pollFirst();
      if (next == null) {
        open--;
      }
    }
    closeQuietly(connection);
    if (next == null) {
      return;
    }
    openOne().whenComplete((c, e) -> {
      if (e != null) {
        next.completeExceptionally(e);
      } else if (!next.complete(c)) {
        release(c); // it gave up meanwhile: the connection serves the next one
      }
    });
  }

  /** Connections open now (idle or in use). */
  public synchronized int size() {
    return open;
  }

  private CompletableFuture<C> openOne() {
    C c;
    try {
      c = factory.open();
    } catch (Exception e) {
      synchronized (this) {
        open--;
      }
      return CompletableFuture.failedFuture(e);
    }
    synchronized (this) {
      if (!closed) {
        inUse.add(c);
        return CompletableFuture.completedFuture(c);
      }
    }
    closeQuietly(c); // the pool closed while it was being opened
    return CompletableFuture.failedFuture(new IllegalStateException("connection pool closed"));
  }

  private void closeQuietly(C connection) {
    try {
      closer.accept(connection);
    } catch (RuntimeException ignored) {
      // already broken
    }
  }

  @Override
  public void close() {
    List<C> toClose;
    List<CompletableFuture<C>> toFail;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(idle);
      toClose.addAll(inUse); // a call still on it fails now: the run that needed it is over
      open = 0;
      idle.clear();
      inUse.clear();
      toFail = new ArrayList<>(waiting);
      waiting.clear();
    }
    toClose.forEach(this::closeQuietly);
    toFail.forEach(w -> w.completeExceptionally(new IllegalStateException("connection pool closed")));
  }
}
