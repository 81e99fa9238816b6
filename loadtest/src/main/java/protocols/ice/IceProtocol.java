package protocols.ice;

import contract.zeroc.IceSettings;
import contract.zeroc.Order;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** Ice's Gatling protocol: the shared settings; maxMessageBytes is Ice.MessageSizeMax. */
public final class IceProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<IceProtocol> KEY = new RpcProtocolKey<>(IceProtocol.class);

  IceProtocol(RpcSettings settings) {
    super(settings);
  }

  @Override
  public String framework() {
    return "ice";
  }

  @Override
  protected int defaultMaxMessageBytes() {
    return IceSettings.DEFAULT_MAX_MESSAGE;
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new IceClient(settings(), maxMessageBytes());
  }
}
