package protocols.dubbo;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.remoting.ChannelHandler;
import org.apache.dubbo.remoting.Client;
import org.apache.dubbo.remoting.RemotingException;
import org.apache.dubbo.remoting.RemotingServer;
import org.apache.dubbo.remoting.Transporter;
import org.apache.dubbo.remoting.transport.netty4.NettyClient;
import org.apache.dubbo.remoting.transport.netty4.NettyClientHandler;
import org.apache.dubbo.remoting.transport.netty4.NettyCodecAdapter;
import org.apache.dubbo.remoting.transport.netty4.ssl.SslClientTlsHandler;
import org.apache.dubbo.remoting.transport.netty4.ssl.SslContexts;
import org.apache.dubbo.remoting.utils.UrlUtils;
import protocols.rpc.GatlingLoops;

/**
 * Dubbo's Netty 4 client with its connection on one of Gatling's event loops instead of Dubbo's shared
 * {@code NettyClientWorker} threads ({@code -Ddubbo.client=loops}): a reference per loop, each user's
 * calls written by its own loop and, with {@code dispatcher=direct}, their replies completed there. The
 * pipeline is Dubbo's own (its codec, heartbeat, TLS), built as {@code NettyClient.initBootstrap} builds it.
 */
public final class GatlingLoopTransporter implements Transporter {
  /** Extension name (META-INF/dubbo/org.apache.dubbo.remoting.Transporter), as client=. */
  public static final String NAME = "gatling-loops";
  /** URL parameter: which of the loops the reference's connection lives on. */
  static final String LOOP_KEY = "gatling.loop";

  /** The loops of a consumer, kept in its application model for the transporter (which Dubbo makes). */
  record Loops(EventLoopGroup group, EventLoop[] loops) {
    static Loops of(EventLoopGroup group) {
      return new Loops(group, GatlingLoops.of(group));
    }
  }

  @Override
  public RemotingServer bind(URL url, ChannelHandler handler) {
    throw new UnsupportedOperationException("client=" + NAME + " is a client transport");
  }

  @Override
  public Client connect(URL url, ChannelHandler handler) throws RemotingException {
    return new OnLoop(url, handler);
  }

  private static final class OnLoop extends NettyClient {
    OnLoop(URL url, ChannelHandler handler) throws RemotingException {
      super(url, handler);
    }

    @Override
    public InetSocketAddress getConnectAddress() {
      return new InetSocketAddress(getUrl().getHost(), getUrl().getPort()); // as given: see ExactAddressTransporter
    }

    /** Called from the super constructor: only getUrl() is set by then. */
    @Override
    protected void initBootstrap(NettyClientHandler nettyClientHandler) {
      Loops loops = getUrl().getOrDefaultApplicationModel().getBeanFactory().getBean(Loops.class);
      if (loops == null) {
        throw new IllegalStateException("client=" + NAME + " without the consumer's Gatling loops");
      }
      EventLoop loop = loops.loops()[Math.floorMod(getUrl().getParameter(LOOP_KEY, 0), loops.loops().length)];
      SslContext sslContext = SslContexts.buildClientSslContext(getUrl());
      getBootstrap().group(loop)
          .channel(GatlingLoops.socketChannelType(loops.group()))
          .option(ChannelOption.SO_KEEPALIVE, true)
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(org.apache.dubbo.remoting.Constants.DEFAULT_CONNECT_TIMEOUT, getConnectTimeout()))
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              if (sslContext != null) {
                ch.pipeline().addLast("negotiation", new SslClientTlsHandler(sslContext));
              }
              NettyCodecAdapter adapter = new NettyCodecAdapter(getCodec(), getUrl(), OnLoop.this);
              ch.pipeline()
                  .addLast("decoder", adapter.getDecoder())
                  .addLast("encoder", adapter.getEncoder())
                  .addLast("client-idle-handler", new IdleStateHandler(UrlUtils.getHeartbeat(getUrl()), 0, 0, MILLISECONDS))
                  .addLast("handler", nettyClientHandler);
            }
          });
    }
  }
}
