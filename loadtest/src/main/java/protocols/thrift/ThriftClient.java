package protocols.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import protocols.core.ConnectionPool;
import protocols.core.RpcClient;
import protocols.core.RpcSettings;
import protocols.core.SizeLimit;

/**
 * Thrift clients over framed transport. A Thrift client carries one call at a time, so both the
 * async clients (non-blocking sockets on {@link TAsyncClientManager} selector threads) and the
 * blocking ones are pooled: one connection per concurrent call, or at most {@code connections}.
 */
final class ThriftClient implements RpcClient<Order, Order> {
  private static final String SERVER_FLAG = "--max-frame";
  /** TFramedTransport: "Frame size (2000116) larger than max length (1048576)!". */
  private static final Pattern FRAME_TOO_LARGE = Pattern.compile("Frame size \\((\\d+)\\) larger than max length");
  private final RpcSettings settings;
  private final TProtocolFactory protocol;
  private final TAsyncClientManager[] managers;
  private final AtomicInteger nextManager = new AtomicInteger();
  private final ConnectionPool<MobileService.AsyncClient> asyncPool;
  private final ConnectionPool<BlockingConnection> blockingPool;
  private final int maxFrame;

  ThriftClient(RpcSettings settings, TProtocolFactory protocol, int maxFrame) {
    this.settings = settings;
    this.protocol = protocol;
    this.maxFrame = maxFrame;
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
        new TSocket(configuration(maxFrame), settings.host(), settings.port(), (int) settings.timeoutMillis()));
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

  private static TConfiguration configuration(int maxFrame) {
    return new TConfiguration(Math.max(maxFrame, TConfiguration.DEFAULT_MAX_MESSAGE_SIZE), maxFrame,
        TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  @Override
  public String sizeLimit(Throwable error, Order request) {
    if (!(error instanceof TTransportException)) {
      return null;
    }
    Matcher m = FRAME_TOO_LARGE.matcher(String.valueOf(error.getMessage()));
    if (m.find()) { // this client refused the reply (blocking client; the async one has no limit)
      return SizeLimit.message("thrift", "reply", Long.parseLong(m.group(1)), maxFrame, SERVER_FLAG);
    }
    if (request == null) {
      return null;
    }
    // The server closes a connection whose frame is over its limit; Thrift does not say why.
    long size = frameSize(request);
    return size > maxFrame ? SizeLimit.message("thrift", "request", size, maxFrame, SERVER_FLAG) : null;
  }

  /** The request's frame as this client writes it, without the 4-byte length. */
  private long frameSize(Order request) {
    try {
      TMemoryBuffer buffer = new TMemoryBuffer(new TConfiguration(Integer.MAX_VALUE, Integer.MAX_VALUE,
          TConfiguration.DEFAULT_RECURSION_DEPTH), 1024);
      TProtocol out = protocol.getProtocol(buffer);
      out.writeMessageBegin(new TMessage("hello", TMessageType.CALL, 0));
      new MobileService.hello_args(request).write(out);
      out.writeMessageEnd();
      return buffer.length();
    } catch (TException e) {
      return -1;
    }
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
