package protocols.rpc;

import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import java.util.concurrent.CompletableFuture;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * What one framework's protocol needs at run time: its client, the sync pool when the mode is sync,
 * and the timer of its calls' timeouts. Built once per run by {@link RpcProtocolKey}; closed when
 * Gatling's actor system terminates.
 */
public final class RpcComponents<C extends RpcClient> implements ProtocolComponents {
  private final RpcProtocol<?, C> protocol;
  private final C client;
  private final ExecutorService syncPool;
  private final CoreComponents core;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Every call's timeout, on one timer wheel. */
  private final CallTimer timeouts;
  /** Sync mode: per virtual user, completed when its call in the pool has finished. */
  private final Map<Long, CompletableFuture<Void>> inPool = new ConcurrentHashMap<>();

  RpcComponents(RpcProtocol<?, C> protocol, C client, CoreComponents core) {
    this.protocol = protocol;
    this.client = client;
    this.core = core;
    RpcSettings s = protocol.settings();
    this.syncPool = s.mode() == InvocationMode.SYNC ? newSyncPool(protocol.framework(), s.syncThreads()) : null;
    this.timeouts = new CallTimer(protocol.framework());
  }

  /**
   * The components of {@code protocol} for a run, closed when it ends.
   *
   * @throws IllegalStateException in one line, when the framework's client cannot start
   */
  static <C extends RpcClient> RpcComponents<C> create(RpcProtocol<?, C> protocol, CoreComponents core) {
    RpcSettings s = protocol.settings();
    C client;
    try {
      client = protocol.newClient(core.eventLoopGroup());
    } catch (RuntimeException e) {
      throw new IllegalStateException("the " + protocol.framework() + " client for " + s.host() + ":" + s.port()
          + " could not start: " + Errors.rootMessage(e), e);
    }
    RpcComponents<C> components = new RpcComponents<>(protocol, client, core);
    core.actorSystem().registerOnTermination(() -> {
      components.close();
      return BoxedUnit.UNIT;
    });
    return components;
  }

  /**
   * {@link RpcMethod#prepare} with this run's client.
   *
   * @throws IllegalStateException in one line, when it fails
   */
  <Req, Resp> RpcMethod<C, Req, Resp> prepare(RpcMethod<C, Req, Resp> method, String requestName) {
    try {
      return method.prepare(client);
    } catch (RuntimeException e) {
      throw new IllegalStateException("request '" + requestName + "' (" + protocol.framework() + ") could not be"
          + " prepared: " + Errors.rootMessage(e), e);
    }
  }

  /** A pool of {@code threads} threads: at most that many blocking calls at once, as the write-up's 200-thread client. */
  static ExecutorService newSyncPool(String framework, int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, framework + "-sync-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    // Unbounded queue type, bounded in use: call() keeps at most one task per virtual user in it.
    return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
  }

  /**
   * Starts one call in the configured mode and never blocks the caller. The future completes once:
   * with the reply, the framework's error, or a {@link TimeoutException} after the timeout.
   *
   * <p>Sync mode keeps at most one call per virtual user in the pool (running or queued). A blocking
   * call that timed out is interrupted, but a framework may ignore that and keep its thread: the
   * user's next call then waits for it instead of queueing behind it, and if the wait outlasts its own
   * timeout it fails with a message that names the stuck pool thread, so pool saturation shows as KOs.
   */
  <Req, Resp> CompletableFuture<Resp> call(long userId, RpcMethod<C, Req, Resp> method, Req request) {
    long timeoutMillis = protocol.settings().timeoutMillis();
    if (syncPool == null) {
      return timeouts.within(method, method.start(client, request, protocol.settings().mode()), timeoutMillis);
    }
    CompletableFuture<Resp> result = new CompletableFuture<>();
    BlockingCall<Req, Resp> task = new BlockingCall<>(userId, method, request, result);
    CompletableFuture<Void> previous = inPool.get(userId);
    if (previous == null) {
      task.submit();
    } else {
      previous.thenRun(task::submit);
    }
    Runnable cancel = timeouts.schedule(() -> {
      if (!task.submitted) {
        result.completeExceptionally(new NeverStarted("never started: this user's previous call still holds a "
            + "thread of the " + protocol.settings().syncThreads() + "-thread sync pool after its own timeout"));
      } else if (result.completeExceptionally(new TimeoutException())) {
        task.interrupt(); // frees the thread if the framework's blocking call honours interrupts
      }
    }, timeoutMillis);
    result.whenComplete((r, e) -> cancel.run()); // a call that came back leaves no timer entry behind
    return result;
  }

  /** A sync call that timed out waiting for its user's previous call to leave the pool: the KO says so. */
  static final class NeverStarted extends TimeoutException {
    NeverStarted(String message) {
      super(message);
    }
  }

  /** One blocking call on the sync pool; the user's slot is released when its thread is done with it. */
  private final class BlockingCall<Req, Resp> implements Runnable {
    private final long userId;
    private final RpcMethod<C, Req, Resp> method;
    private final Req request;
    private final CompletableFuture<Resp> result;
    private final CompletableFuture<Void> released = new CompletableFuture<>();
    private volatile boolean submitted;
    private Thread runner;

    BlockingCall(long userId, RpcMethod<C, Req, Resp> method, Req request, CompletableFuture<Resp> result) {
      this.userId = userId;
      this.method = method;
      this.request = request;
      this.result = result;
    }

    void submit() {
      if (result.isDone()) {
        return; // timed out while waiting for the user's previous call
      }
      submitted = true;
      inPool.put(userId, released);
      try {
        syncPool.execute(this);
      } catch (RejectedExecutionException e) {
        release();
        result.completeExceptionally(e);
      }
    }

    @Override
    public void run() {
      synchronized (this) {
        runner = Thread.currentThread();
      }
      try {
        if (!result.isDone()) {
          result.complete(method.callSync(client, request, protocol.settings().timeoutMillis()));
        }
      } catch (Exception | LinkageError | AssertionError e) {
        result.completeExceptionally(e);
      } finally {
        synchronized (this) {
          runner = null;
          Thread.interrupted(); // an interrupt that came late must not hit the pool's next task
        }
        release();
      }
    }

    synchronized void interrupt() {
      if (runner != null) {
        runner.interrupt();
      }
    }

    private void release() {
      inPool.remove(userId, released);
      released.complete(null);
    }
  }

  /** Call timeouts waiting on the timer wheel. */
  int pendingTimeouts() {
    return timeouts.pending();
  }

  /** Sync mode: tasks the pool holds, running or queued (at most one per virtual user). */
  int syncPoolTasks() {
    ThreadPoolExecutor pool = (ThreadPoolExecutor) syncPool;
    return pool.getQueue().size() + pool.getActiveCount();
  }

  public RpcProtocol<?, C> protocol() {
    return protocol;
  }

  public C client() {
    return client;
  }

  public CoreComponents core() {
    return core;
  }

  /** Idempotent: closes the client, the pool and the timer. */
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      client.close();
    } catch (RuntimeException e) {
      System.err.println(protocol.framework() + " client did not close cleanly: " + Errors.rootMessage(e));
    }
    if (syncPool != null) {
      syncPool.shutdownNow();
    }
    timeouts.close();
  }

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return session -> BoxedUnit.UNIT;
  }
}
