package protocols.dubbo;

import contract.pojo.Order;
import java.util.Map;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** Dubbo's Gatling protocol: the shared settings plus the serialization. */
public final class DubboProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<DubboProtocol> KEY = new RpcProtocolKey<>(DubboProtocol.class);

  /** Dubbo's own payload limit (URL parameter payload), also the echo server's --payload default. */
  static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;

  private final String serialization;

  DubboProtocol(RpcSettings settings, String serialization) {
    super(settings);
    this.serialization = serialization;
  }

  public String serialization() {
    return serialization;
  }

  @Override
  public String framework() {
    return "dubbo";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("serialization", serialization);
  }

  @Override
  protected int defaultMaxMessageBytes() {
    return DEFAULT_PAYLOAD;
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new DubboClient(settings(), serialization, maxMessageBytes());
  }
}
