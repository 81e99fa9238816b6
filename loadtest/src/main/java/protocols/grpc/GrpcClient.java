package protocols.grpc;

import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.core.RpcClient;
import protocols.core.RpcSettings;
import protocols.core.SizeLimit;

/**
 * grpc-java client: {@code channels} HTTP/2 connections built once, calls spread over them in turn.
 * Every call carries a gRPC deadline of the run's timeout.
 */
final class GrpcClient implements RpcClient<Order, Order> {
  private final ManagedChannel[] channels;
  private final MobileServiceGrpc.MobileServiceStub[] async;
  private final MobileServiceGrpc.MobileServiceBlockingStub[] blocking;
  private final AtomicInteger next = new AtomicInteger();
  private final long timeoutMillis;
  private static final long RECONNECT_MILLIS = 250;
  private final AtomicLongArray lastReset;
  private final int maxMessage;

  /** grpc-java's RESOURCE_EXHAUSTED description, on either side: "gRPC message exceeds maximum size 1048576: 2000058". */
  private static final Pattern EXCEEDS = Pattern.compile("exceeds maximum size (\\d+): (\\d+)");

  GrpcClient(RpcSettings settings, int maxMessage) {
    this.maxMessage = maxMessage;
    int n = settings.connections() == 0 ? 1 : settings.connections(); // gRPC's default: one channel
    timeoutMillis = settings.timeoutMillis();
    channels = new ManagedChannel[n];
    lastReset = new AtomicLongArray(n);
    async = new MobileServiceGrpc.MobileServiceStub[n];
    blocking = new MobileServiceGrpc.MobileServiceBlockingStub[n];
    for (int i = 0; i < n; i++) {
      // directExecutor: replies are handed straight from the transport thread to the core, which
      // stamps the time and hops to the virtual user's event loop; nothing blocks there.
      channels[i] = NettyChannelBuilder.forAddress(settings.host(), settings.port())
          .usePlaintext()
          .directExecutor()
          .maxInboundMessageSize(maxMessage)
          .build();
      connect(channels[i], settings);
      async[i] = MobileServiceGrpc.newStub(channels[i]);
      blocking[i] = MobileServiceGrpc.newBlockingStub(channels[i]);
    }
  }

  /**
   * A channel connects lazily, on its first call, so the first level would time the HTTP/2 handshake:
   * ask for the connection now and wait, at most the call timeout, until it is ready.
   */
  private static void connect(ManagedChannel channel, RpcSettings settings) {
    CountDownLatch ready = new CountDownLatch(1);
    watch(channel, channel.getState(true), ready);
    try {
      if (!ready.await(settings.timeoutMillis(), TimeUnit.MILLISECONDS)) {
        System.err.println("grpc: channel to " + settings.host() + ":" + settings.port() + " not ready after "
            + settings.timeoutMillis() + " ms (state " + channel.getState(false) + "); calls will wait for it");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void watch(ManagedChannel channel, ConnectivityState state, CountDownLatch ready) {
    if (state == ConnectivityState.READY) {
      ready.countDown();
      return;
    }
    if (state == ConnectivityState.SHUTDOWN || ready.getCount() == 0) {
      return;
    }
    channel.notifyWhenStateChanged(state, () -> watch(channel, channel.getState(true), ready));
  }

  private int pick() {
    return Math.floorMod(next.getAndIncrement(), channels.length);
  }

  @Override
  public CompletionStage<Order> callAsync(Order request) {
    CompletableFuture<Order> reply = new CompletableFuture<>();
    int i = pick();
    async[i].withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS).hello(request, new StreamObserver<>() {
      @Override
      public void onNext(Order value) {
        reply.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        reconnectSoon(i, t);
        reply.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        // unary: onNext already completed the reply
      }
    });
    return reply;
  }

  @Override
  public Order callSync(Order request) {
    int i = pick();
    try {
      return blocking[i].withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS).hello(request);
    } catch (StatusRuntimeException e) {
      reconnectSoon(i, e);
      throw e;
    }
  }

  /**
   * A channel whose server went away retries with exponential back-off (1 s, x1.6, up to 2 min): after
   * an outage of a few seconds its next try could come many seconds after the server is back. While
   * calls fail as UNAVAILABLE, ask for a new try now, at most every {@link #RECONNECT_MILLIS}.
   */
  private void reconnectSoon(int i, Throwable t) {
    if (Status.fromThrowable(t).getCode() != Status.Code.UNAVAILABLE) {
      return;
    }
    long now = System.nanoTime();
    long last = lastReset.get(i);
    if (now - last >= TimeUnit.MILLISECONDS.toNanos(RECONNECT_MILLIS) && lastReset.compareAndSet(i, last, now)) {
      channels[i].resetConnectBackoff();
    }
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return Status.fromThrowable(error).getCode() == Status.Code.DEADLINE_EXCEEDED;
  }

  @Override
  public String sizeLimit(Throwable error, Order request) {
    if (!(error instanceof StatusRuntimeException e) || e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
      return null;
    }
    Matcher m = EXCEEDS.matcher(String.valueOf(e.getStatus().getDescription()));
    if (!m.find()) {
      return null;
    }
    long limit = Long.parseLong(m.group(1));
    long bytes = Long.parseLong(m.group(2));
    // Both sides word it alike. A limit other than this client's is the server's (the request); this
    // client's, with a request under it, means the reply; else either could have been refused.
    String what = limit != maxMessage ? "request"
        : request != null && request.getSerializedSize() <= limit ? "reply" : "message";
    return SizeLimit.message("grpc", what, bytes, limit, "--max-message");
  }

  @Override
  public String errorCode(Throwable error) {
    return error instanceof StatusRuntimeException ? "grpc " + Status.fromThrowable(error).getCode()
        : error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    for (ManagedChannel c : channels) {
      if (c != null) {
        c.shutdown();
      }
    }
    for (ManagedChannel c : channels) {
      try {
        if (c != null && !c.awaitTermination(5, TimeUnit.SECONDS)) {
          c.shutdownNow();
        }
      } catch (InterruptedException e) {
        c.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
