package protocols.ice;

import contract.zeroc.Order;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcRequestBuilder;

/** ZeroC Ice in an echo run. */
public final class IceFramework extends EchoFramework<Order> {

  @Override
  public String name() {
    return "ice";
  }

  @Override
  public String serverMainClass() {
    return "servers.ice.IceEchoServer";
  }

  @Override
  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return IceDsl.ice;
  }

  @Override
  public RpcRequestBuilder<Order, Order> request(String name) {
    return IceDsl.ice(name);
  }

  @Override
  public Order order(long orderId) {
    return IceDsl.order(orderId);
  }
}
