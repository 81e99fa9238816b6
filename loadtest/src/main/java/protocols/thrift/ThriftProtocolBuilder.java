package protocols.thrift;

import io.gatling.core.protocol.Protocol;
import contract.thrift.WireProtocols;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/** {@code thrift.target("127.0.0.1", 9090).wireProtocol("compact")...}: immutable. */
public final class ThriftProtocolBuilder extends RpcProtocolBuilder<ThriftProtocolBuilder> {
  static final ThriftProtocolBuilder DEFAULT =
      new ThriftProtocolBuilder(RpcSettings.defaults(9090), WireProtocols.DEFAULT);

  private final String wireProtocol;

  private ThriftProtocolBuilder(RpcSettings settings, String wireProtocol) {
    super(settings);
    this.wireProtocol = wireProtocol;
  }

  @Override
  protected ThriftProtocolBuilder with(RpcSettings newSettings) {
    return new ThriftProtocolBuilder(newSettings, wireProtocol);
  }

  /** binary (Thrift's default) or compact; the server must use the same. */
  public ThriftProtocolBuilder wireProtocol(String name) {
    WireProtocols.factory(name); // rejects an unknown name now, not at run time
    return new ThriftProtocolBuilder(settings, name);
  }

  @Override
  public Protocol protocol() {
    return new ThriftProtocol(settings, wireProtocol);
  }
}
