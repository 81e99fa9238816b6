package protocols.grpc;

import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/**
 * {@code grpc.target("127.0.0.1", 50051).connections(4)...}: immutable. {@code connections} is the
 * number of channels (HTTP/2 connections) the users share; the default is one.
 */
public final class GrpcProtocolBuilder extends RpcProtocolBuilder<GrpcProtocolBuilder> {
  static final GrpcProtocolBuilder DEFAULT = new GrpcProtocolBuilder(RpcSettings.defaults(50051));

  private GrpcProtocolBuilder(RpcSettings settings) {
    super(settings);
  }

  @Override
  protected GrpcProtocolBuilder with(RpcSettings newSettings) {
    return new GrpcProtocolBuilder(newSettings);
  }

  @Override
  public Protocol protocol() {
    return new GrpcProtocol(settings);
  }
}
