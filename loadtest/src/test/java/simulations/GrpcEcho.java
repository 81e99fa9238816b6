package simulations;

import protocols.core.EchoSimulation;
import protocols.grpc.GrpcDsl;

/** gRPC echo through the levels; -Dconnections=N spreads the users over N channels (default 1). */
public class GrpcEcho extends EchoSimulation {
  public GrpcEcho() {
    super(GrpcDsl.FRAMEWORK);
  }
}
