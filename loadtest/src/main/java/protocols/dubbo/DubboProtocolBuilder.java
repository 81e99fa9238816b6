package protocols.dubbo;

import contract.dubbo.DubboSerialization;
import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/** {@code dubbo.target("127.0.0.1", 20880).serialization("kryo")...}: immutable. */
public final class DubboProtocolBuilder extends RpcProtocolBuilder<DubboProtocolBuilder> {
  static final DubboProtocolBuilder DEFAULT =
      new DubboProtocolBuilder(RpcSettings.defaults(20880), DubboSerialization.DEFAULT);

  private final String serialization;

  private DubboProtocolBuilder(RpcSettings settings, String serialization) {
    super(settings);
    this.serialization = serialization;
  }

  @Override
  protected DubboProtocolBuilder with(RpcSettings newSettings) {
    return new DubboProtocolBuilder(newSettings, serialization);
  }

  /** hessian2 (Dubbo's default), kryo (the write-up's) or fastjson2; the server must use the same. */
  public DubboProtocolBuilder serialization(String name) {
    if (!DubboSerialization.SUPPORTED.contains(name)) {
      throw new IllegalArgumentException("Dubbo serialization must be one of "
          + String.join("|", DubboSerialization.SUPPORTED) + ", got '" + name + "'");
    }
    return new DubboProtocolBuilder(settings, name);
  }

  @Override
  public Protocol protocol() {
    return new DubboProtocol(settings, serialization);
  }
}
