package protocols.grpc.lab;

import static protocols.grpc.GrpcDsl.grpc;

import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import io.grpc.ManagedChannel;
import protocols.grpc.GrpcClient;
import protocols.grpc.GrpcDsl;
import protocols.lab.RpcFramework;

/** gRPC as the lab knows it: its echo server, its echo and sample order. */
public final class GrpcFramework {
  /** {@code -Dconnections=N} spreads the users over N channels (default one per event loop). */
  public static final RpcFramework<GrpcClient, Order> FRAMEWORK = RpcFramework.of("grpc", ManagedChannel.class,
      "servers.grpc.GrpcEchoServer", "--max-message", p -> GrpcDsl.grpc,
      grpc("echo").unary(MobileServiceGrpc.getHelloMethod()).calls(), GrpcDsl::order);

  private GrpcFramework() {}
}
