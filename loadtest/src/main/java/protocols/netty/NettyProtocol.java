package protocols.netty;

import contract.netty.EchoFrames;
import contract.pojo.Order;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** The ceiling's Gatling protocol: only the shared settings. */
public final class NettyProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<NettyProtocol> KEY = new RpcProtocolKey<>(NettyProtocol.class);

  NettyProtocol(RpcSettings settings) {
    super(settings);
  }

  @Override
  public String framework() {
    return "netty";
  }

  @Override
  protected int defaultMaxMessageBytes() {
    return EchoFrames.DEFAULT_MAX_FRAME;
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new NettyClient(settings(), maxMessageBytes());
  }
}
