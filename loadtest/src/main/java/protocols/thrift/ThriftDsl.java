package protocols.thrift;

import contract.SampleOrder;
import contract.thrift.Order;
import protocols.core.RpcRequestBuilder;

/** The Thrift DSL: {@code thrift} is the protocol, {@code thrift("echo").hello(...)} a request. */
public final class ThriftDsl {
  /** The protocol builder, with Thrift's defaults (127.0.0.1:9090, binary, async). */
  public static final ThriftProtocolBuilder thrift = ThriftProtocolBuilder.DEFAULT;

  private ThriftDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> thrift(String name) {
    return new RpcRequestBuilder<>(ThriftProtocol.KEY, name);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return new Order(orderId, SampleOrder.PHONE, SampleOrder.NAME, SampleOrder.ORDER_NUM, SampleOrder.ORDER_DATE,
        SampleOrder.TICKET_TYPE, SampleOrder.AMOUNT, SampleOrder.ORDER_STATUS);
  }
}
