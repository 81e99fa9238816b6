package contract.grpc;

/** gRPC's Order from its eight fields, as {@link contract.SampleOrder.Fields} takes them (protobuf has no such constructor). */
public final class GrpcOrder {
  private GrpcOrder() {}

  public static Order of(long orderId, String phone, String name, String orderNum, int orderDate, int ticketType,
                         double amount, int orderStatus) {
    return Order.newBuilder().setOrderId(orderId).setPhone(phone).setName(name).setOrderNum(orderNum)
        .setOrderDate(orderDate).setTicketType(ticketType).setAmount(amount).setOrderStatus(orderStatus).build();
  }
}
