package protocols.core;

import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
 * and the run's latency report. Built once per run by {@link RpcProtocolKey}; closed when Gatling's
 * actor system terminates.
 */
public final class RpcComponents<Req, Resp> implements ProtocolComponents {
  private final RpcProtocol<Req, Resp> protocol;
  private final RpcClient<Req, Resp> client;
  private final ExecutorService syncPool;
  private final RunReport report;
  private final CoreComponents core;
  private final AtomicBoolean closed = new AtomicBoolean();

  RpcComponents(RpcProtocol<Req, Resp> protocol, RpcClient<Req, Resp> client, RunReport report, CoreComponents core) {
    this.protocol = protocol;
    this.client = client;
    this.report = report;
    this.core = core;
    RpcSettings s = protocol.settings();
    this.syncPool = s.mode() == InvocationMode.SYNC ? newSyncPool(protocol.framework(), s.syncThreads()) : null;
  }

  static <Req, Resp> RpcComponents<Req, Resp> create(RpcProtocol<Req, Resp> protocol, CoreComponents core) {
    RpcSettings s = protocol.settings();
    RpcClient<Req, Resp> client;
    try {
      client = protocol.newClient();
    } catch (RuntimeException e) {
      throw new IllegalStateException(protocol.framework() + " client for " + s.host() + ":" + s.port()
          + " could not start: " + Errors.rootMessage(e), e);
    }
    RunReport report = RunReport.attach(core, protocol);
    RpcComponents<Req, Resp> components = new RpcComponents<>(protocol, client, report, core);
    core.actorSystem().registerOnTermination(() -> {
      components.close();
      return BoxedUnit.UNIT;
    });
    return components;
  }

  /**
   * A bounded pool: at most {@code threads} blocking calls at once, as the write-up's 200-thread
   * client. The queue holds at most one call per virtual user, since each user waits for its reply.
   */
  static ExecutorService newSyncPool(String framework, int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, framework + "-sync-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
  }

  /** Starts one call in the configured mode; never blocks the caller. */
  CompletableFuture<Resp> invoke(Req request) {
    if (syncPool == null) {
      return client.callAsync(request).toCompletableFuture();
    }
    return CompletableFuture.supplyAsync(() -> {
      try {
        return client.callSync(request);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    }, syncPool);
  }

  public RpcProtocol<Req, Resp> protocol() {
    return protocol;
  }

  public RpcClient<Req, Resp> client() {
    return client;
  }

  public LatencyRecorder recorder() {
    return report.recorder();
  }

  public CoreComponents core() {
    return core;
  }

  /** Idempotent: closes the client and the pool, then writes the run's summary. */
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
    report.release();
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
