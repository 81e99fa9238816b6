package protocols.grpc;

import contract.SampleOrder;
import contract.grpc.Order;
import protocols.core.EchoFramework;
import protocols.core.RpcRequestBuilder;

/** The gRPC DSL: {@code grpc} is the protocol, {@code grpc("echo").hello(...)} a unary Hello call. */
public final class GrpcDsl {
  /** The protocol builder, with gRPC's defaults (127.0.0.1:50051, one channel, async). */
  public static final GrpcProtocolBuilder grpc = GrpcProtocolBuilder.DEFAULT;

  /** gRPC in an echo run; {@code -Dconnections=N} spreads the users over N channels (default 1). */
  public static final EchoFramework<Order> ECHO =
      EchoFramework.of("grpc", "servers.grpc.GrpcEchoServer", "--max-message", p -> grpc, GrpcDsl::grpc, GrpcDsl::order);

  private GrpcDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> grpc(String name) {
    return new RpcRequestBuilder<>(GrpcProtocol.KEY, name);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return Order.newBuilder().setOrderId(orderId).setPhone(SampleOrder.PHONE).setName(name)
        .setOrderNum(SampleOrder.ORDER_NUM).setOrderDate(SampleOrder.ORDER_DATE).setTicketType(SampleOrder.TICKET_TYPE)
        .setAmount(SampleOrder.AMOUNT).setOrderStatus(SampleOrder.ORDER_STATUS).build();
  }
}
