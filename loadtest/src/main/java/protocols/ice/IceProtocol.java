package protocols.ice;

import contract.zeroc.Order;
import java.util.Map;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** Ice's Gatling protocol: the shared settings plus Ice.MessageSizeMax. */
public final class IceProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<IceProtocol> KEY = new RpcProtocolKey<>(IceProtocol.class);

  private final int maxMessage;

  IceProtocol(RpcSettings settings, int maxMessage) {
    super(settings);
    this.maxMessage = maxMessage;
  }

  @Override
  public String framework() {
    return "ice";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("messageSizeMaxBytes", maxMessage);
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new IceClient(settings(), maxMessage);
  }
}
