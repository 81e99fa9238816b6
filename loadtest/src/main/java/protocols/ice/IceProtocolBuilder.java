package protocols.ice;

import contract.zeroc.IceSettings;
import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/** {@code ice.target("127.0.0.1", 10000)...}: immutable. */
public final class IceProtocolBuilder extends RpcProtocolBuilder<IceProtocolBuilder> {
  static final IceProtocolBuilder DEFAULT =
      new IceProtocolBuilder(RpcSettings.defaults(10000), IceSettings.DEFAULT_MAX_MESSAGE);

  private final int maxMessage;

  private IceProtocolBuilder(RpcSettings settings, int maxMessage) {
    super(settings);
    this.maxMessage = maxMessage;
  }

  @Override
  protected IceProtocolBuilder with(RpcSettings newSettings) {
    return new IceProtocolBuilder(newSettings, maxMessage);
  }

  /** Largest message accepted, in bytes (Ice.MessageSizeMax; default 1 MiB). */
  public IceProtocolBuilder messageSizeMax(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("messageSizeMax must be positive, got " + bytes);
    }
    return new IceProtocolBuilder(settings, bytes);
  }

  @Override
  public Protocol protocol() {
    return new IceProtocol(settings, maxMessage);
  }
}
