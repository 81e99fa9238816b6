package protocols.netty;

import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/** {@code netty.target("127.0.0.1", 7000)...}: immutable. */
public final class NettyProtocolBuilder extends RpcProtocolBuilder<NettyProtocolBuilder> {
  static final NettyProtocolBuilder DEFAULT = new NettyProtocolBuilder(RpcSettings.defaults(7000));

  private NettyProtocolBuilder(RpcSettings settings) {
    super(settings);
  }

  @Override
  protected NettyProtocolBuilder with(RpcSettings newSettings) {
    return new NettyProtocolBuilder(newSettings);
  }

  @Override
  public Protocol protocol() {
    return new NettyProtocol(settings);
  }
}
