package protocols.grpc;

import contract.grpc.Order;
import java.util.Map;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** gRPC's Gatling protocol: the shared settings plus the largest reply accepted. */
public final class GrpcProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<GrpcProtocol> KEY = new RpcProtocolKey<>(GrpcProtocol.class);

  private final int maxMessage;

  GrpcProtocol(RpcSettings settings, int maxMessage) {
    super(settings);
    this.maxMessage = maxMessage;
  }

  @Override
  public String framework() {
    return "grpc";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("channels", settings().connections() == 0 ? 1 : settings().connections(),
        "maxInboundMessageSize", maxMessage);
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new GrpcClient(settings(), maxMessage);
  }
}
