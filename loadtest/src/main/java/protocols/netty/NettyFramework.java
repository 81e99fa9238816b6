package protocols.netty;

import contract.pojo.Order;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcRequestBuilder;

/** The ceiling (Netty, length-prefixed frames, Kryo) in an echo run. */
public final class NettyFramework extends EchoFramework<Order> {

  @Override
  public String name() {
    return "netty";
  }

  @Override
  public String serverMainClass() {
    return "servers.netty.NettyEchoServer";
  }

  @Override
  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return NettyDsl.netty;
  }

  @Override
  public RpcRequestBuilder<Order, Order> request(String name) {
    return NettyDsl.netty(name);
  }

  @Override
  public Order order(long orderId) {
    return NettyDsl.order(orderId);
  }
}
