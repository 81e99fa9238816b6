package protocols.grpc;

import io.gatling.core.protocol.Protocol;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcSettings;

/**
 * {@code grpc.target("127.0.0.1", 50051).connections(4)...}: immutable. {@code connections} is the
 * number of channels (HTTP/2 connections) the users share; the default is one.
 */
public final class GrpcProtocolBuilder extends RpcProtocolBuilder<GrpcProtocolBuilder> {
  static final GrpcProtocolBuilder DEFAULT = new GrpcProtocolBuilder(RpcSettings.defaults(50051), 1024 * 1024);

  private final int maxMessage;

  private GrpcProtocolBuilder(RpcSettings settings, int maxMessage) {
    super(settings);
    this.maxMessage = maxMessage;
  }

  @Override
  protected GrpcProtocolBuilder with(RpcSettings newSettings) {
    return new GrpcProtocolBuilder(newSettings, maxMessage);
  }

  /** Largest reply accepted, in bytes (default 1 MiB); a larger one fails the call. */
  public GrpcProtocolBuilder maxInboundMessageSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxInboundMessageSize must be positive, got " + bytes);
    }
    return new GrpcProtocolBuilder(settings, bytes);
  }

  @Override
  public Protocol protocol() {
    return new GrpcProtocol(settings, maxMessage);
  }
}
