package protocols.thrift;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.thrift.TException;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClient;
import protocols.rpc.ConnectionPool;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;

/**
 * A method of a Thrift-generated service: {@code thrift("name").client(OrderService.AsyncClient.class)
 * .call((c, order, reply) -> c.place(order, reply))}. Each call takes a pooled client for itself (a
 * Thrift client carries one call at a time). Without a blocking form ({@link #blocking}), sync mode
 * waits for the async call on the sync pool. Immutable.
 */
public record ThriftMethod<A extends TAsyncClient, B extends TServiceClient, Req, Resp>(
    Class<A> asyncType, Async<A, Req, Resp> async, Class<B> blockingType, Blocking<B, Req, Resp> blocking,
    Halves<?, Req, Resp> halves, ConnectionPool<ThriftClient.Async<A>> asyncPool, ConnectionPool<B> blockingPool,
    FramedConnections framed)
    implements RpcMethod<ThriftClient, Req, Resp> {

  /** The method's two halves on the generated blocking client: {@code send_x(request)} and {@code recv_x()}. */
  record Halves<H extends TServiceClient, Req, Resp>(java.lang.reflect.Constructor<H> make, Send<H, Req> send,
                                                     Receive<H, Resp> receive) {
    CompletableFuture<Resp> call(FramedConnections on, Req request) {
      return on.call(make, send, receive, request);
    }
  }

  /** The async client class a request calls, waiting for the call. */
  public static final class Client<A extends TAsyncClient> {
    private final String name;
    private final Class<A> type;

    Client(String name, Class<A> type) {
      this.name = name;
      this.type = type;
    }

    /** The call, as the generated async client takes it: {@code (c, req, reply) -> c.someMethod(req, reply)}. */
    public <Req, Resp> ThriftRequest<Req, Resp> call(Async<A, Req, Resp> call) {
      return new ThriftRequest<>(name, new ThriftMethod<A, TServiceClient, Req, Resp>(type, call, null, null, null, null,
          null, null));
    }
  }

  /** A request to a Thrift method; {@link #blocking} adds its blocking form for sync mode. Immutable. */
  public static final class ThriftRequest<Req, Resp> extends RpcRequest<ThriftClient, Req, Resp> {
    private final ThriftMethod<?, ?, Req, Resp> method;

    ThriftRequest(String name, ThriftMethod<?, ?, Req, Resp> method) {
      super(ThriftProtocol.KEY, name);
      this.method = method;
    }

    /** The same method on the generated blocking client, for sync mode: {@code (c, req) -> c.someMethod(req)}. */
    public <B extends TServiceClient> ThriftRequest<Req, Resp> blocking(Class<B> type, Blocking<B, Req, Resp> call) {
      return new ThriftRequest<>(name(), method.withBlocking(type, call));
    }

    /**
     * The same method as the generated blocking client's two halves, for async calls made on Gatling's
     * event loops ({@code thrift.asyncPath(AsyncPath.LOOPS)}): {@code (c, req) -> c.send_someMethod(req)}
     * and {@code c -> c.recv_someMethod()}.
     */
    public <H extends TServiceClient> ThriftRequest<Req, Resp> halves(Class<H> type, Send<H, Req> send,
                                                                      Receive<H, Resp> receive) {
      return new ThriftRequest<>(name(), method.withHalves(new Halves<>(constructor(type), send, receive)));
    }

    @Override
    protected RpcMethod<ThriftClient, Req, Resp> method() {
      return method;
    }
  }

  /** The generated client's (input, output) constructor. */
  private static <H extends TServiceClient> java.lang.reflect.Constructor<H> constructor(Class<H> type) {
    try {
      return type.getConstructor(org.apache.thrift.protocol.TProtocol.class, org.apache.thrift.protocol.TProtocol.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(type.getName() + " is not a Thrift-generated client: it has no public "
          + type.getSimpleName() + "(TProtocol, TProtocol)");
    }
  }

  <B2 extends TServiceClient> ThriftMethod<A, B2, Req, Resp> withBlocking(Class<B2> type, Blocking<B2, Req, Resp> call) {
    return new ThriftMethod<>(asyncType, async, type, call, halves, null, null, null);
  }

  ThriftMethod<A, B, Req, Resp> withHalves(Halves<?, Req, Resp> split) {
    return new ThriftMethod<>(asyncType, async, blockingType, blocking, split, null, null, null);
  }

  /** On the loops path, every call times out on its loop's own timer: the core adds none. */
  @Override
  public boolean enforcesTimeout() {
    return framed != null;
  }

  @Override
  public RpcMethod<ThriftClient, Req, Resp> prepare(ThriftClient client) {
    FramedConnections loops = client.framed();
    if (loops != null && halves == null && (client.asyncCalls() || blocking == null)) {
      throw new IllegalArgumentException("thrift: the loops path (" + ThriftProtocol.AsyncPath.LOOPS.label()
          + ") calls the generated client's send_/recv_ halves: add .halves(Service.Client.class,"
          + " (c, req) -> c.send_method(req), c -> c.recv_method()) to the request");
    }
    return new ThriftMethod<>(asyncType, async, blockingType, blocking, halves,
        loops == null ? client.asyncPool(asyncType) : null,
        blockingType == null ? null : client.blockingPool(blockingType), loops);
  }

  /**
   * The reply completes before a waiting call's send on the connection (which would otherwise be timed
   * as part of this call), and after the connection is idle again when nobody waits. A caller that gives up (the run's timeout cancels
   * the reply) while the call still waits for a connection leaves the pool's queue; a connection that
   * reaches it anyway goes back to the pool.
   */
  @Override
  public CompletionStage<Resp> callAsync(ThriftClient client, Req request) {
    if (framed != null) {
      return halves.call(framed, request);
    }
    CompletableFuture<Resp> reply = new CompletableFuture<>();
    CompletableFuture<ThriftClient.Async<A>> lease = asyncPool.acquire();
    reply.whenComplete((r, e) -> lease.cancel(false));
    lease.whenComplete((c, failed) -> {
      if (failed != null) {
        reply.completeExceptionally(failed);
      } else if (reply.isDone()) {
        asyncPool.release(c);
      } else {
        call(c, request, reply);
      }
    });
    return reply;
  }

  private void call(ThriftClient.Async<A> c, Req request, CompletableFuture<Resp> reply) {
    try {
      async.call(c.client(), request, new AsyncMethodCallback<>() {
        @Override
        public void onComplete(Resp response) {
          asyncPool.release(c, () -> reply.complete(response));
        }

        @Override
        public void onError(Exception e) {
          reply.completeExceptionally(e);
          asyncPool.discard(c); // a failed or timed-out Thrift client is unusable
        }
      });
    } catch (Exception e) {
      reply.completeExceptionally(e);
      asyncPool.discard(c);
    }
  }

  @Override
  public Resp callSync(ThriftClient client, Req request, long timeoutMillis) throws Exception {
    if (blocking == null) {
      return RpcMethod.super.callSync(client, request, timeoutMillis);
    }
    B c = waitFor(blockingPool, timeoutMillis);
    try {
      Resp reply = blocking.call(c, request);
      blockingPool.release(c);
      return reply;
    } catch (Exception e) {
      blockingPool.discard(c);
      throw e;
    }
  }

  /** A pooled connection within {@code timeoutMillis}, or a TimeoutException with the caller out of the queue. */
  private static <C> C waitFor(ConnectionPool<C> pool, long timeoutMillis) throws Exception {
    CompletableFuture<C> lease = pool.acquire();
    try {
      return lease.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | InterruptedException e) {
      if (!lease.cancel(false) && !lease.isCompletedExceptionally()) {
        pool.release(lease.join()); // it came as we gave up
      }
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** A call on a generated async client: {@code (c, req, reply) -> c.someMethod(req, reply)}. */
  @FunctionalInterface
  public interface Async<A, Req, Resp> {
    void call(A client, Req request, AsyncMethodCallback<Resp> reply) throws TException;
  }

  /** The first half of a call on a generated blocking client: {@code (c, req) -> c.send_someMethod(req)}. */
  @FunctionalInterface
  public interface Send<B, Req> {
    void send(B client, Req request) throws TException;
  }

  /** The second half: {@code c -> c.recv_someMethod()}. */
  @FunctionalInterface
  public interface Receive<B, Resp> {
    Resp receive(B client) throws TException;
  }

  /** A call on a generated blocking client: {@code (c, req) -> c.someMethod(req)}. */
  @FunctionalInterface
  public interface Blocking<B, Req, Resp> {
    Resp call(B client, Req request) throws TException;
  }
}
