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
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  private final AtomicReferenceArray<Channel> channels;
  private final Bootstrap bootstrap;
  private final SslContext ssl;
  private final RpcSettings settings;
  private volatile boolean closed;
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong callIds = new AtomicLong();
  private final AtomicInteger next = new AtomicInteger();
  private final long timeoutMillis;
  private final int maxFrame;
  private static final String SERVER_FLAG = "--max-frame";
  /** Netty's TooLongFrameException: "Adjusted frame length exceeds 65536: 100012 - discarded". */
  private static final Pattern TOO_LONG = Pattern.compile("exceeds \\d+: (\\d+)");
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
    channels = new AtomicReferenceArray<>(settings.connections() > 0 ? settings.connections()
        : (ownsGroup ? 1 : homes.length) * settings.targets().size());
    try {
      for (int i = 0; i < channels.length(); i++) {
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
        channels.set(i, channel);
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
        channels.set(i, f.channel());
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
   * one (a virtual user's own loop: the reply then completes on it), else on the next connection in
   * turn; completed on the I/O thread, or failed by its own timeout.
   */
  public CompletionStage<Order> hello(Order request) {
    long id = callIds.incrementAndGet();
    CompletableFuture<Order> reply = new CompletableFuture<>();
    // While a connection is down its calls fail at once (the write fails on a closed channel).
    Channel channel = pick();
    pending.put(id, new Pending(channel, reply));
    // Forget the call once it is answered, failed or timed out, so a lost reply leaks nothing; the
    // timeout on the connection's own loop, not the JDK's shared delayer.
    ScheduledFuture<?> timeout = channel.eventLoop().schedule(
        () -> reply.completeExceptionally(new TimeoutException()), timeoutMillis, TimeUnit.MILLISECONDS);
    reply.whenComplete((r, e) -> {
      pending.remove(id);
      timeout.cancel(false);
    });
    ByteBuf frame = channel.alloc().buffer(128);
    try {
      EchoFrames.write(frame, id, request, maxFrame);
    } catch (RuntimeException e) {
      frame.release();
      reply.completeExceptionally(e);
      return reply;
    }
    channel.writeAndFlush(frame).addListener(f -> {
      if (!f.isSuccess()) {
        reply.completeExceptionally(f.cause());
      }
    });
    return reply;
  }

  private Channel pick() {
    int n = channels.length();
    return channels.get(ownsGroup ? Math.floorMod(next.getAndIncrement(), n)
        : GatlingLoops.connectionFor(homes, n, next.getAndIncrement()));
  }



  @Override
  public String sizeLimit(Throwable error, Object request) {
    if (error instanceof EchoFrames.FrameTooLarge e) {
      return SizeLimit.message("netty", "request", e.size(), e.limit(), SERVER_FLAG);
    }
    if (error instanceof DecoderException e && e.getCause() instanceof TooLongFrameException
        || error instanceof TooLongFrameException) {
      Matcher m = TOO_LONG.matcher(String.valueOf(error.getMessage()));
      return SizeLimit.message("netty", "reply", m.find() ? Long.parseLong(m.group(1)) : -1, maxFrame, SERVER_FLAG);
    }
    return null;
  }

  @Override
  public void close() {
    closed = true;
    if (channels != null) {
      for (int i = 0; i < channels.length(); i++) {
        if (channels.get(i) != null) {
          channels.get(i).close();
        }
      }
    }
    if (ownsGroup) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
    pending.values().forEach(p -> p.reply.completeExceptionally(new IOException("client closed")));
  }

  /** A call waiting for its reply, and the connection it was sent on. */
  private record Pending(Channel channel, CompletableFuture<Order> reply) {
  }

  private final class Replies extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      Pending call = pending.remove(EchoFrames.callId(frame));
      if (call != null) {
        call.reply.complete(EchoFrames.order(frame));
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      // The connection is gone: its calls (and only its) fail now rather than at their timeout.
      pending.values().stream().filter(p -> p.channel == ctx.channel())
          .forEach(p -> p.reply.completeExceptionally(new IOException("connection closed by server")));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // A reply over the frame limit: the connection is unusable; its calls fail with the reason.
      pending.values().stream().filter(p -> p.channel == ctx.channel())
          .forEach(p -> p.reply.completeExceptionally(cause));
      ctx.close();
    }
  }
}
