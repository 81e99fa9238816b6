package contract.dubbo;

import java.net.InetSocketAddress;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.remoting.ChannelHandler;
import org.apache.dubbo.remoting.Client;
import org.apache.dubbo.remoting.Constants;
import org.apache.dubbo.remoting.RemotingException;
import org.apache.dubbo.remoting.RemotingServer;
import org.apache.dubbo.remoting.Transporter;
import org.apache.dubbo.remoting.transport.netty4.NettyClient;
import org.apache.dubbo.remoting.transport.netty4.NettyServer;

/**
 * Dubbo's Netty 4 transport, but using exactly the address it is given. Dubbo itself rewrites any
 * 127.x address: a server asked to bind 127.0.0.1 binds 0.0.0.0 (AbstractServer), and a client asked
 * to connect to 127.0.0.1 connects to the machine's network address instead (AbstractClient). Both
 * would take the echo off loopback. Servers also get {@link GuardedCodec}, which closes connections
 * that send garbage.
 */
public final class ExactAddressTransporter implements Transporter {

  /** Extension name (META-INF/dubbo/org.apache.dubbo.remoting.Transporter); use as server= and client=. */
  public static final String NAME = "exact";
  /** URL parameter with the address a server binds; Dubbo rewrites its own host and bind.ip for 127.x. */
  public static final String BIND_HOST_KEY = "exact.bind.host";

  @Override
  public RemotingServer bind(URL url, ChannelHandler handler) throws RemotingException {
    return new NettyServer(url.addParameter(Constants.CODEC_KEY, GuardedCodec.NAME), handler) {
      @Override
      public InetSocketAddress getBindAddress() {
        // Called from the super constructor: only getUrl() is set by then.
        URL u = getUrl();
        return new InetSocketAddress(u.getParameter(BIND_HOST_KEY), u.getParameter(Constants.BIND_PORT_KEY, u.getPort()));
      }
    };
  }

  @Override
  public Client connect(URL url, ChannelHandler handler) throws RemotingException {
    return new NettyClient(url, handler) {
      @Override
      public InetSocketAddress getConnectAddress() {
        return new InetSocketAddress(getUrl().getHost(), getUrl().getPort());
      }
    };
  }
}
