package servers.netty;

import contract.netty.EchoFrames;
import contract.pojo.Order;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import contract.tls.TlsFiles;
import java.util.Optional;
import javax.net.ssl.SSLException;
import servers.common.ServerTls;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import servers.common.EchoServerMain;
import servers.common.Served;
import servers.common.ServerFlags;
import servers.common.ServiceDelay;

/**
 * The ceiling: the same echo with as little framework as possible. Netty reads length-prefixed
 * frames, Kryo decodes and re-encodes the Order on the I/O thread, no thread hop, no registry, no
 * filters. Every real framework is measured against it.
 *
 * <pre>java servers.netty.NettyEchoServer [--host 127.0.0.1] [--port 7000] [--threads 0] [--max-frame 65536]
 *     [--flush-consolidation off|on] [--transport nio|epoll]</pre>
 *
 * {@code --threads 0} is Netty's default number of I/O threads (twice the cores).
 */
public final class NettyEchoServer {

  public static final int DEFAULT_PORT = 7000;

  public static void main(String[] args) {
    Map<String, String> defaults = EchoServerMain.commonDefaults(DEFAULT_PORT);
    defaults.put("threads", "0");
    defaults.put("max-frame", Integer.toString(EchoFrames.DEFAULT_MAX_FRAME));
    defaults.put("flush-consolidation", "off");
    defaults.put("transport", "nio");
    EchoServerMain.run("netty", args, defaults, NettyEchoServer::start);
  }

  static EchoServerMain.RunningServer start(ServerFlags flags, String host, int port, Optional<ServerTls> tls)
      throws Exception {
    SslContext ssl = tls.isPresent() ? sslContext(tls.get()) : null;
    int threads = flags.intValue("threads", 0, 1_024);
    int maxFrame = flags.intValue("max-frame", 1024, Integer.MAX_VALUE);
    // Netty's FlushConsolidationHandler: the replies to one read's requests flushed once, at the read's end.
    boolean consolidate = flags.oneOf("flush-consolidation", "off", "on").equals("on");
    // The JDK's NIO selector, or Linux's epoll through Netty's native transport (fewer system calls and copies).
    boolean epoll = flags.oneOf("transport", "nio", "epoll").equals("epoll");
    if (epoll && !Epoll.isAvailable()) {
      throw new IllegalArgumentException("--transport epoll: Netty's epoll transport does not load here ("
          + Epoll.unavailabilityCause().getMessage() + "); use --transport nio");
    }
    IoHandlerFactory ioHandlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, ioHandlers);
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(threads, ioHandlers);
    ChannelHandler echo = new Echo(ServiceDelay.from(flags).micros());
    try {
      Channel listener = new ServerBootstrap()
          .group(boss, workers)
          .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              if (consolidate) {
                ch.pipeline().addLast(new io.netty.handler.flush.FlushConsolidationHandler(
                    io.netty.handler.flush.FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
              }
              if (ssl != null) {
                ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
              }
              // A frame over maxFrame fails the decoder, which closes the connection (see Echo).
              ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(maxFrame, 0, EchoFrames.LENGTH_BYTES, 0,
                  EchoFrames.LENGTH_BYTES), echo);
            }
          })
          .bind(new InetSocketAddress(host, port)).sync().channel();
      int loops = (int) java.util.stream.StreamSupport.stream(workers.spliterator(), false).count();
      return EchoServerMain.RunningServer.naming("Netty " + (epoll ? "epoll" : "NIO") + ", " + EchoServerMain.count(loops, "I/O thread") + " (the echo on them), flush"
          + " consolidation " + (consolidate ? "on" : "off"), () -> {
            listener.close().sync();
            workers.shutdownGracefully().sync();
            boss.shutdownGracefully().sync();
          });
    } catch (Exception e) {
      workers.shutdownGracefully();
      boss.shutdownGracefully();
      throw e;
    }
  }

  /** Netty's SslHandler: OpenSSL (netty-tcnative's BoringSSL) when it loads, else the JDK's. */
  static SslContext sslContext(ServerTls tls) throws SSLException {
    TlsFiles.Identity identity = TlsFiles.identity(tls.cert(), tls.key());
    SslContextBuilder builder = SslContextBuilder.forServer(identity.keyManagers());
    if (tls.mutual()) {
      builder.trustManager(TlsFiles.trustManagers(TlsFiles.certificates(tls.clientCa()))).clientAuth(ClientAuth.REQUIRE);
    }
    return builder.build();
  }

  @ChannelHandler.Sharable
  static final class Echo extends SimpleChannelInboundHandler<ByteBuf> {
    private final long delayMicros;

    Echo(long delayMicros) {
      this.delayMicros = delayMicros;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      long arrived = Served.call();
      long callId = EchoFrames.callId(frame);
      Order order = EchoFrames.order(frame);
      ByteBuf out = ctx.alloc().buffer(128);
      EchoFrames.write(out, callId, order, Integer.MAX_VALUE); // as long as the request, which fit
      if (delayMicros == 0) {
        ctx.writeAndFlush(out, ctx.voidPromise());
        Served.replied(arrived);
      } else { // --delay-us: the event loop's own timer, so the loop never sleeps
        ctx.executor().schedule(() -> {
          ctx.writeAndFlush(out, ctx.voidPromise());
          Served.replied(arrived);
        }, delayMicros, TimeUnit.MICROSECONDS);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close(); // a bad frame or a bad object: drop this connection, serve the others
    }
  }
}
