package protocols.ice;

import contract.zeroc.IceSettings;
import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/** {@code ice.target("127.0.0.1", 10000)...}: immutable. */
public final class IceProtocolBuilder extends RpcProtocolBuilder<IceProtocolBuilder> {
  static final IceProtocolBuilder DEFAULT = new IceProtocolBuilder(RpcSettings.defaults(10000));

  private IceProtocolBuilder(RpcSettings settings) {
    super(settings);
  }

  @Override
  protected IceProtocolBuilder with(RpcSettings newSettings) {
    return new IceProtocolBuilder(newSettings);
  }

  @Override
  public Protocol protocol() {
    return new IceProtocol(settings);
  }
}
