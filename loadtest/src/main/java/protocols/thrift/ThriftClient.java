package protocols.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import protocols.core.ConnectionPool;
import protocols.core.RpcClient;
import protocols.core.RpcSettings;

/**
 * Thrift clients over framed transport. A Thrift client carries one call at a time, so both the
 * async clients (non-blocking sockets on {@link TAsyncClientManager} selector threads) and the
 * blocking ones are pooled: one connection per concurrent call, or at most {@code connections}.
 */
final class ThriftClient implements RpcClient<Order, Order> {
  private final RpcSettings settings;
  private final TProtocolFactory protocol;
  private final TAsyncClientManager[] managers;
  private final AtomicInteger nextManager = new AtomicInteger();
  private final ConnectionPool<MobileService.AsyncClient> asyncPool;
  private final ConnectionPool<BlockingConnection> blockingPool;

  ThriftClient(RpcSettings settings, TProtocolFactory protocol) {
    this.settings = settings;
    this.protocol = protocol;
    // One selector thread per core, as Gatling has one event loop per core.
    int selectors = Math.max(1, Runtime.getRuntime().availableProcessors());
    managers = new TAsyncClientManager[selectors];
    try {
      for (int i = 0; i < selectors; i++) {
        managers[i] = new TAsyncClientManager();
      }
    } catch (IOException e) {
      close();
      throw new IllegalStateException("could not start Thrift's selector: " + e.getMessage(), e);
    }
    asyncPool = new ConnectionPool<>(this::openAsync, c -> { }, settings.connections());
    blockingPool = new ConnectionPool<>(this::openBlocking, c -> c.transport.close(), settings.connections());
    checkConnects();
  }

  /** Fails at start, not on the first call, when the server is not there. */
  private void checkConnects() {
    try {
      blockingPool.release(blockingPool.acquire().join());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private MobileService.AsyncClient openAsync() throws IOException, TTransportException {
    TNonblockingSocket socket = new TNonblockingSocket(settings.host(), settings.port(), (int) settings.timeoutMillis());
    TAsyncClientManager manager = managers[Math.floorMod(nextManager.getAndIncrement(), managers.length)];
    MobileService.AsyncClient client = new MobileService.AsyncClient(protocol, manager, socket);
    client.setTimeout(settings.timeoutMillis());
    return client;
  }

  private BlockingConnection openBlocking() throws TTransportException {
    TTransport transport = new TFramedTransport(
        new TSocket(new TConfiguration(), settings.host(), settings.port(), (int) settings.timeoutMillis()));
    transport.open();
    return new BlockingConnection(transport, new MobileService.Client(protocol.getProtocol(transport)));
  }

  @Override
  public CompletionStage<Order> callAsync(Order request) {
    return asyncPool.acquire().thenCompose(client -> {
      CompletableFuture<Order> reply = new CompletableFuture<>();
      try {
        client.hello(request, new AsyncMethodCallback<>() {
          @Override
          public void onComplete(Order response) {
            asyncPool.release(client);
            reply.complete(response);
          }

          @Override
          public void onError(Exception e) {
            asyncPool.discard(client); // a failed or timed-out Thrift client is unusable
            reply.completeExceptionally(e);
          }
        });
      } catch (Exception e) {
        asyncPool.discard(client);
        reply.completeExceptionally(e);
      }
      return reply;
    });
  }

  @Override
  public Order callSync(Order request) throws Exception {
    BlockingConnection c = blockingPool.acquire().join();
    try {
      Order reply = c.client.hello(request);
      blockingPool.release(c);
      return reply;
    } catch (Exception e) {
      blockingPool.discard(c);
      throw e;
    }
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof TTransportException && error.getCause() instanceof SocketTimeoutException;
  }

  @Override
  public String errorCode(Throwable error) {
    if (error instanceof TTransportException e) {
      return "thrift transport " + e.getType();
    }
    if (error instanceof TApplicationException e) {
      return "thrift application " + e.getType();
    }
    if (error instanceof TProtocolException e) {
      return "thrift protocol " + e.getType();
    }
    return error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    if (asyncPool != null) {
      asyncPool.close();
    }
    if (blockingPool != null) {
      blockingPool.close();
    }
    for (TAsyncClientManager m : managers) {
      if (m != null) {
        m.stop();
      }
    }
  }

  private record BlockingConnection(TTransport transport, MobileService.Client client) {}
}
