package protocols.thrift;

import contract.thrift.Order;
import contract.thrift.WireProtocols;
import java.util.Map;
import protocols.core.RpcClient;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcSettings;

/** Thrift's Gatling protocol: the shared settings plus the wire protocol (binary or compact). */
public final class ThriftProtocol extends RpcProtocol<Order, Order> {
  public static final RpcProtocolKey<ThriftProtocol> KEY = new RpcProtocolKey<>(ThriftProtocol.class);

  /** The echo server's --max-frame default. */
  static final int DEFAULT_MAX_FRAME = 1024 * 1024;

  private final String wireProtocol;

  ThriftProtocol(RpcSettings settings, String wireProtocol) {
    super(settings);
    this.wireProtocol = wireProtocol;
  }

  @Override
  public String framework() {
    return "thrift";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("protocol", wireProtocol);
  }

  @Override
  protected int defaultMaxMessageBytes() {
    return DEFAULT_MAX_FRAME;
  }

  @Override
  public RpcClient<Order, Order> newClient() {
    return new ThriftClient(settings(), WireProtocols.factory(wireProtocol), maxMessageBytes());
  }
}
