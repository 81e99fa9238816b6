package protocols.grpc;

import contract.SampleOrder;
import contract.grpc.Order;
import protocols.core.RpcRequestBuilder;

/** The gRPC DSL: {@code grpc} is the protocol, {@code grpc("echo").hello(...)} a unary Hello call. */
public final class GrpcDsl {
  /** The protocol builder, with gRPC's defaults (127.0.0.1:50051, one channel, async). */
  public static final GrpcProtocolBuilder grpc = GrpcProtocolBuilder.DEFAULT;

  private GrpcDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> grpc(String name) {
    return new RpcRequestBuilder<>(GrpcProtocol.KEY, name);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return Order.newBuilder().setOrderId(orderId).setPhone(SampleOrder.PHONE).setName(SampleOrder.NAME)
        .setOrderNum(SampleOrder.ORDER_NUM).setOrderDate(SampleOrder.ORDER_DATE).setTicketType(SampleOrder.TICKET_TYPE)
        .setAmount(SampleOrder.AMOUNT).setOrderStatus(SampleOrder.ORDER_STATUS).build();
  }
}
