package protocols.grpc;

import contract.grpc.Order;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcRequestBuilder;

/** gRPC in an echo run; {@code -Dconnections=N} spreads the users over N channels (default 1). */
public final class GrpcFramework extends EchoFramework<Order> {

  @Override
  public String name() {
    return "grpc";
  }

  @Override
  public String serverMainClass() {
    return "servers.grpc.GrpcEchoServer";
  }

  @Override
  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return GrpcDsl.grpc;
  }

  @Override
  public RpcRequestBuilder<Order, Order> request(String name) {
    return GrpcDsl.grpc(name);
  }

  @Override
  public Order order(long orderId) {
    return GrpcDsl.order(orderId);
  }
}
