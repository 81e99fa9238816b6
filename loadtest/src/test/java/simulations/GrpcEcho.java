package simulations;

import protocols.grpc.lab.GrpcFramework;

/** gRPC echo through the levels; -Dconnections=N spreads the users over N channels (default 1). */
public class GrpcEcho extends EchoSimulation {
  public GrpcEcho() {
    super(GrpcFramework.FRAMEWORK);
  }
}
