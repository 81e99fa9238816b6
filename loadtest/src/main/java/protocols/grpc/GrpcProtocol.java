package protocols.grpc;

import contract.grpc.Order;
import java.util.Map;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** gRPC's Gatling protocol: the shared settings. */
public final class GrpcProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<GrpcProtocol> KEY = new RpcProtocolKey<>(GrpcProtocol.class);

  /** The echo server's --max-message default; gRPC's own is 4 MiB. */
  static final int DEFAULT_MAX_MESSAGE = 1024 * 1024;

  GrpcProtocol(RpcSettings settings) {
    super(settings);
  }

  @Override
  public String framework() {
    return "grpc";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("channels", settings().connections() == 0 ? 1 : settings().connections());
  }

  @Override
  protected int defaultMaxMessageBytes() {
    return DEFAULT_MAX_MESSAGE;
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new GrpcClient(settings(), maxMessageBytes());
  }
}
