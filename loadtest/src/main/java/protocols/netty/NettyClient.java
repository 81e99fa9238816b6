package protocols.netty;

import contract.netty.EchoFrames;
import contract.pojo.Order;
import io.netty.bootstrap.Bootstrap;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import javax.net.ssl.SSLException;
import protocols.rpc.Errors;
import protocols.rpc.NettyTls;
import protocols.rpc.Tls;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import protocols.rpc.GatlingLoops;
import protocols.rpc.HostPort;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcSettings;
import protocols.rpc.SizeLimit;

/**
 * The ceiling's client: calls multiplexed by call id over one connection (or {@code connections}),
 * replies matched to their call and completed on the I/O thread.
 */
public final class NettyClient implements RpcClient {
  private final EventLoopGroup group;
  private final boolean ownsGroup;
  /** The loops of the group: connection i lives on loop i (modulo), also after a reconnect. */
  private final EventLoop[] homes;
  /** Connection i: its channel and its calls waiting for their reply, replaced whole on a reconnect. */
  private final AtomicReferenceArray<Connection> connections;
  private final Bootstrap bootstrap;
  private final SslContext ssl;
  private final RpcSettings settings;
  private volatile boolean closed;
  private final AtomicInteger next = new AtomicInteger();
  private final long timeoutMillis;
  private final int maxFrame;
  private static final String SERVER_FLAG = "--max-frame";
  private static final long RECONNECT_FIRST_MILLIS = 50;
  private static final long RECONNECT_MAX_MILLIS = 1_000;

  /**
   * @param gatlingLoops Gatling's event loops (or the plain driver's, laid out alike), to do the
   *     client's I/O on (one connection per loop by default, and each user's calls on the connection of
   *     its own loop, so its replies need no hop); null: the client's own loop and one connection
   */
  NettyClient(RpcSettings settings, int maxFrame, EventLoopGroup gatlingLoops) {
    timeoutMillis = settings.timeoutMillis();
    this.maxFrame = maxFrame;
    ownsGroup = gatlingLoops == null;
    group = ownsGroup ? new MultiThreadIoEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
        NioIoHandler.newFactory()) : gatlingLoops;
    this.settings = settings;
    homes = GatlingLoops.of(group);
    bootstrap = new Bootstrap().group(group).channel(GatlingLoops.socketChannelType(group))
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    ssl = settings.tls() == null ? null : sslContext(settings.tls());
    // Several providers: each loop gets a connection to each (channel i: loop i mod loops, provider i / loops).
    connections = new AtomicReferenceArray<>(settings.connections() > 0 ? settings.connections()
        : (ownsGroup ? 1 : homes.length) * settings.targets().size());
    try {
      for (int i = 0; i < connections.length(); i++) {
        Channel channel = connect(i).sync().channel();
        SslHandler handshake = channel.pipeline().get(SslHandler.class);
        if (handshake != null && !handshake.handshakeFuture().await(timeoutMillis)) {
          channel.close();
          throw new IllegalStateException("no TLS handshake within " + timeoutMillis + " ms");
        }
        if (handshake != null && !handshake.handshakeFuture().isSuccess()) {
          throw new IllegalStateException(Errors.rootMessage(handshake.handshakeFuture().cause()),
              handshake.handshakeFuture().cause());
        }
        connections.set(i, new Connection(channel));
        watch(i, channel);
      }
    } catch (Exception e) {
      close();
      throw new IllegalStateException("cannot connect to " + settings.host() + ":" + settings.port() + ": " + e, e);
    }
  }

  private ChannelFuture connect(int i) {
    int perProvider = ownsGroup ? 1 : homes.length;
    HostPort target = settings.targets().get((i / perProvider) % settings.targets().size());
    return bootstrap.clone(homes[i % homes.length]).handler(new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        if (ssl != null) { // the server's name checked against the host called, or the name given
          ch.pipeline().addLast(ssl.newHandler(ch.alloc(), settings.tls().serverName().orElse(target.host()),
              target.port()));
        }
        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(maxFrame, 0,
            EchoFrames.LENGTH_BYTES, 0, EchoFrames.LENGTH_BYTES), new Replies());
      }
    }).connect(target.host(), target.port());
  }

  /** Netty's SslHandler on the implementation asked for (by default OpenSSL where it loads). */
  static SslContext sslContext(Tls tls) {
    try {
      return NettyTls.forClient(tls).sslProvider(NettyTls.provider(tls.provider())).build();
    } catch (SSLException e) {
      throw new IllegalArgumentException("netty TLS: " + Errors.rootMessage(e), e);
    }
  }

  /** When connection {@code i} closes, reconnect it: at once, then backing off to at most a second. */
  private void watch(int i, Channel channel) {
    channel.closeFuture().addListener(f -> reconnect(i, RECONNECT_FIRST_MILLIS));
  }

  private void reconnect(int i, long delayMillis) {
    if (closed) {
      return;
    }
    group.schedule(() -> connect(i).addListener((ChannelFutureListener) f -> {
      if (f.isSuccess() && !closed) {
        connections.set(i, new Connection(f.channel()));
        watch(i, f.channel());
      } else if (f.isSuccess()) {
        f.channel().close();
      } else {
        reconnect(i, Math.min(RECONNECT_MAX_MILLIS, delayMillis * 2));
      }
    }), delayMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * The ceiling's one method: the order back, on a connection of the calling thread's loop if there is
   * one (a virtual user's own loop: the call is sent and its reply completes there, with nothing shared
   * between loops), else on the next connection in turn, handed to its loop; completed on the I/O
   * thread, or failed by its own timeout.
   */
  public CompletionStage<Order> hello(Order request) {
    CompletableFuture<Order> reply = new CompletableFuture<>();
    Connection connection = connections.get(pick());
    Channel channel = connection.channel();
    Replies calls = connection.replies();
    if (channel.eventLoop().inEventLoop()) {
      send(channel, calls, request, reply);
    } else {
      try {
        channel.eventLoop().execute(() -> send(channel, calls, request, reply));
      } catch (RejectedExecutionException e) {
        reply.completeExceptionally(new IOException("client closed"));
      }
    }
    return reply;
  }

  /** On the connection's loop: the call registered under its id, its timeout set, the frame written. */
  private void send(Channel channel, Replies calls, Order request, CompletableFuture<Order> reply) {
    ByteBuf frame = channel.alloc().buffer(128);
    long id = calls.nextId++;
    try {
      EchoFrames.write(frame, id, request, maxFrame);
    } catch (RuntimeException e) {
      frame.release();
      reply.completeExceptionally(e);
      return;
    }
    // A lost reply leaks nothing: the timeout, on this loop's own timer, forgets the call.
    ScheduledFuture<?> timeout = channel.eventLoop().schedule(() -> {
      calls.pending.remove(id);
      reply.completeExceptionally(new TimeoutException());
    }, timeoutMillis, TimeUnit.MILLISECONDS);
    calls.pending.put(id, new Pending(reply, timeout));
    // While a connection is down its calls fail at once (the write fails on a closed channel).
    channel.writeAndFlush(frame).addListener(f -> {
      if (!f.isSuccess()) {
        calls.fail(id, f.cause());
      }
    });
  }

  private int pick() {
    int n = connections.length();
    return ownsGroup ? Math.floorMod(next.getAndIncrement(), n) : GatlingLoops.connectionFor(homes, n, next);
  }

  @Override
  public String sizeLimit(Throwable error, Object request) {
    if (error instanceof EchoFrames.FrameTooLarge e) {
      return SizeLimit.message("netty", "request", e.size(), e.limit(), SERVER_FLAG);
    }
    java.util.OptionalLong tooLong = SizeLimit.tooLongFrame(error);
    return tooLong.isPresent() ? SizeLimit.message("netty", "reply", tooLong.getAsLong(), maxFrame, SERVER_FLAG) : null;
  }

  @Override
  public void close() {
    closed = true;
    if (connections != null) {
      for (int i = 0; i < connections.length(); i++) {
        if (connections.get(i) != null) {
          connections.get(i).channel().close();
        }
      }
    }
    if (ownsGroup) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  /** A connection and its pipeline's replies handler, read together so a call never pairs one with another's. */
  private record Connection(Channel channel, Replies replies) {
    Connection(Channel channel) {
      this(channel, channel.pipeline().get(Replies.class));
    }
  }

  /** A call waiting for its reply, and its timeout. */
  private record Pending(CompletableFuture<Order> reply, ScheduledFuture<?> timeout) {
  }

  /** One connection's replies, matched to its calls by id; every field is touched on its loop only. */
  private final class Replies extends SimpleChannelInboundHandler<ByteBuf> {
    private final Map<Long, Pending> pending = new HashMap<>();
    private long nextId;

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      Pending call = pending.remove(EchoFrames.callId(frame));
      if (call != null) {
        call.timeout.cancel(false);
        call.reply.complete(EchoFrames.order(frame));
      }
    }

    void fail(long id, Throwable error) {
      Pending call = pending.remove(id);
      if (call != null) {
        call.timeout.cancel(false);
        call.reply.completeExceptionally(error);
      }
    }

    /** Every call waiting on this connection fails now rather than at its timeout. */
    private void failAll(Throwable error) {
      List<Pending> calls = List.copyOf(pending.values());
      pending.clear();
      for (Pending call : calls) {
        call.timeout.cancel(false);
        call.reply.completeExceptionally(error);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      failAll(new IOException(closed ? "client closed" : "connection closed by server"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // A reply over the frame limit: the connection is unusable; its calls fail with the reason.
      failAll(cause);
      ctx.close();
    }
  }
}
