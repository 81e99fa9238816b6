package protocols.grpc;

import com.google.protobuf.MessageLite;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NegotiationType;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContext;
import javax.net.ssl.SSLException;
import protocols.rpc.Errors;
import protocols.rpc.NettyTls;
import protocols.rpc.Tls;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.rpc.GatlingLoops;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcSettings;
import protocols.rpc.SizeLimit;

/**
 * grpc-java client: {@code channels} HTTP/2 connections built once. In a Gatling run they do their
 * I/O on Gatling's own event loops (by default one channel per loop, and each virtual user's calls on
 * its own loop's channel, so replies complete where the user runs: no thread hop); outside Gatling,
 * on grpc-java's own loops, calls spread over the channels in turn. Every call carries a gRPC
 * deadline: the request's own, or the run's timeout.
 */
public final class GrpcClient implements RpcClient {
  private final ManagedChannel[] channels;
  /** The loops the channels run on (channel i on loop i, modulo), or null: grpc-java's own. */
  private final EventLoop[] loops;
  private final AtomicInteger next = new AtomicInteger();
  private final long timeoutMillis;
  private static final long RECONNECT_MILLIS = 250;
  private final AtomicLongArray lastReset;
  private final int maxMessage;
  /** Every call's compressor (grpc-java's registry name), or null: none. */
  private final String compression;

  /** grpc-java's RESOURCE_EXHAUSTED description, on either side: "gRPC message exceeds maximum size 1048576: 2000058". */
  private static final Pattern EXCEEDS = Pattern.compile("exceeds maximum size (\\d+): (\\d+)");

  /** With grpc-netty's window and no compression. */
  GrpcClient(RpcSettings settings, int maxMessage, EventLoopGroup gatlingLoops) {
    this(settings, maxMessage, GrpcProtocol.ChannelOptions.DEFAULTS, gatlingLoops);
  }

  /** @param gatlingLoops Gatling's event loops (or the plain driver's, laid out alike) to do the I/O on; or null */
  GrpcClient(RpcSettings settings, int maxMessage, GrpcProtocol.ChannelOptions options, EventLoopGroup gatlingLoops) {
    this.maxMessage = maxMessage;
    compression = options.compression().equals("none") ? null : options.compression();
    loops = gatlingLoops == null ? null : GatlingLoops.of(gatlingLoops);
    int n = settings.connections() > 0 ? settings.connections() : loops == null ? 1 : loops.length;
    timeoutMillis = settings.timeoutMillis();
    channels = new ManagedChannel[n];
    SslContext sslContext = settings.tls() == null ? null : sslContext(settings.tls());
    lastReset = new AtomicLongArray(n);
    for (int i = 0; i < n; i++) {
      // directExecutor: replies are handed straight from the transport thread to the core, which
      // stamps the time (and hops to the virtual user's event loop if it is another); nothing blocks there.
      NettyChannelBuilder builder = (settings.targets().size() == 1
          ? NettyChannelBuilder.forAddress(settings.host(), settings.port())
          : NettyChannelBuilder.forTarget(ProviderList.target())
              .nameResolverFactory(new ProviderList(settings.targets())).defaultLoadBalancingPolicy("round_robin"))
          .directExecutor()
          .maxInboundMessageSize(maxMessage)
          .flowControlWindow(options.flowWindow());
      if (!options.retry()) {
        builder.disableRetry();
      }
      if (settings.tls() == null) {
        builder.usePlaintext();
      } else {
        builder.sslContext(sslContext).negotiationType(NegotiationType.TLS);
        settings.tls().serverName().ifPresent(builder::overrideAuthority);
      }
      if (loops != null) {
        // A loop is a group of one: the channel's connection, and its deadlines, live on it.
        builder.eventLoopGroup(loops[i % loops.length]).channelType(GatlingLoops.socketChannelType(gatlingLoops));
      }
      channels[i] = builder.build();
      connect(channels[i], settings);
    }
  }

  /** grpc-java's client TLS on Netty's SslContext, ALPN h2, with the implementation asked for. */
  static SslContext sslContext(Tls tls) {
    try {
      return GrpcSslContexts.configure(NettyTls.forClient(tls), NettyTls.provider(tls.provider())).build();
    } catch (SSLException e) {
      throw new IllegalArgumentException("gRPC TLS: " + Errors.rootMessage(e), e);
    }
  }

  /**
   * A channel connects lazily, so the first level would time the HTTP/2 handshake: connects before the
   * first call, until READY or the first failed attempt (TRANSIENT_FAILURE: a refused connection, a
   * failed TLS handshake), which the first call then reports at once instead of after the whole timeout.
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
    if (state == ConnectivityState.READY || state == ConnectivityState.TRANSIENT_FAILURE) {
      ready.countDown();
      return;
    }
    if (state == ConnectivityState.SHUTDOWN || ready.getCount() == 0) {
      return;
    }
    channel.notifyWhenStateChanged(state, () -> watch(channel, channel.getState(true), ready));
  }

  /** A channel on the calling thread's own loop if there is one, else the next in turn. */
  private int pick() {
    return loops != null ? GatlingLoops.connectionFor(loops, channels.length, next)
        : Math.floorMod(next.getAndIncrement(), channels.length);
  }

  /**
   * One unary call: {@code headers} sent with it, a gRPC deadline of {@code deadlineMillis}; the
   * reply completes on the transport thread.
   */
  <Req, Resp> CompletionStage<Resp> unary(MethodDescriptor<Req, Resp> method, Metadata headers, long deadlineMillis,
                                          Req request) {
    CompletableFuture<Resp> reply = new CompletableFuture<>();
    int i = pick();
    ClientCall<Req, Resp> call = channels[i].newCall(method, options(deadlineMillis));
    try {
      call.start(new ClientCall.Listener<>() {
        private Resp value;

        @Override
        public void onMessage(Resp message) {
          value = message;
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
          if (!status.isOk()) {
            StatusRuntimeException e = status.asRuntimeException(trailers);
            reconnectSoon(i, e);
            reply.completeExceptionally(e);
          } else if (value == null) {
            reply.completeExceptionally(Status.INTERNAL.withDescription("no reply message").asRuntimeException());
          } else {
            reply.complete(value);
          }
        }
      }, headers == null ? new Metadata() : headers);
      call.request(2); // as grpc-java's ClientCalls: a second message would be a protocol error
      call.sendMessage(request);
      call.halfClose();
    } catch (RuntimeException | Error e) {
      call.cancel("could not send", e);
      reply.completeExceptionally(e);
    }
    return reply;
  }

  /** A new call for a stream, on a channel of the calling thread's loop; {@code channel} for {@link #reconnectSoon}. */
  record StreamCall<Req, Resp>(ClientCall<Req, Resp> call, int channel) {
  }

  <Req, Resp> StreamCall<Req, Resp> newStreamCall(MethodDescriptor<Req, Resp> method, long deadlineMillis) {
    int i = pick();
    return new StreamCall<>(channels[i].newCall(method, options(deadlineMillis)), i);
  }

  /** The same call through grpc-java's blocking stub API. */
  <Req, Resp> Resp blockingUnary(MethodDescriptor<Req, Resp> method, Metadata headers, long deadlineMillis,
                                 Req request) {
    int i = pick();
    Channel channel = headers == null ? channels[i]
        : ClientInterceptors.intercept(channels[i], MetadataUtils.newAttachHeadersInterceptor(headers));
    try {
      return ClientCalls.blockingUnaryCall(channel, method, options(deadlineMillis), request);
    } catch (StatusRuntimeException e) {
      reconnectSoon(i, e);
      throw e;
    }
  }

  /**
   * The same call through grpc-java's async stub API ({@code ClientCalls.asyncUnaryCall} with a
   * {@link StreamObserver}): callback mode. {@code done} is called once, on the transport thread.
   */
  <Req, Resp> void callbackUnary(MethodDescriptor<Req, Resp> method, Metadata headers, long deadlineMillis,
                                 Req request, BiConsumer<? super Resp, ? super Throwable> done) {
    int i = pick();
    Channel channel = headers == null ? channels[i]
        : ClientInterceptors.intercept(channels[i], MetadataUtils.newAttachHeadersInterceptor(headers));
    ClientCalls.asyncUnaryCall(channel.newCall(method, options(deadlineMillis)), request, new StreamObserver<>() {
      private Resp value;

      @Override
      public void onNext(Resp message) {
        value = message;
      }

      @Override
      public void onError(Throwable t) {
        reconnectSoon(i, t);
        done.accept(null, t);
      }

      @Override
      public void onCompleted() {
        done.accept(value, null);
      }
    });
  }

  private CallOptions options(long deadlineMillis) {
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(deadlineMillis > 0 ? deadlineMillis : timeoutMillis,
        TimeUnit.MILLISECONDS);
    return compression == null ? options : options.withCompression(compression);
  }

  /** A channel for what is not a load call (server reflection). */
  Channel channel() {
    return channels[0];
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  /**
   * A channel whose server went away retries with exponential back-off (1 s, x1.6, up to 2 min): after
   * an outage of a few seconds its next try could come many seconds after the server is back. While
   * calls fail as UNAVAILABLE, ask for a new try now, at most every {@link #RECONNECT_MILLIS}.
   */
  void reconnectSoon(int i, Throwable t) {
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
  public String sizeLimit(Throwable error, Object request) {
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
        : request instanceof MessageLite message && message.getSerializedSize() <= limit ? "reply" : "message";
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
