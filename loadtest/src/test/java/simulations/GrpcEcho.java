package simulations;

import static protocols.grpc.GrpcDsl.grpc;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import protocols.core.EchoSimulation;
import protocols.grpc.GrpcDsl;
import servers.grpc.GrpcEchoServer;

/** gRPC echo through the levels; {@code -Dconnections=N} spreads the users over N channels (default 1). */
public class GrpcEcho extends EchoSimulation {

  public GrpcEcho() {
    super("grpc", GrpcEchoServer.class, p -> List.of());
    echo(name -> grpc(name).hello(session -> GrpcDsl.order(ThreadLocalRandom.current().nextLong())),
        run.configure(grpc));
  }
}
