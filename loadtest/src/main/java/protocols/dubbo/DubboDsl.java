package protocols.dubbo;

import contract.SampleOrder;
import contract.pojo.Order;
import protocols.core.RpcRequestBuilder;

/**
 * The Dubbo DSL, in Gatling's style: {@code dubbo} is the protocol, {@code dubbo("echo").hello(...)}
 * a request.
 */
public final class DubboDsl {
  /** The protocol builder, with Dubbo's defaults (127.0.0.1:20880, hessian2, async). */
  public static final DubboProtocolBuilder dubbo = DubboProtocolBuilder.DEFAULT;

  private DubboDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> dubbo(String name) {
    return new RpcRequestBuilder<>(DubboProtocol.KEY, name);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return new Order(orderId, SampleOrder.PHONE, SampleOrder.NAME, SampleOrder.ORDER_NUM, SampleOrder.ORDER_DATE,
        SampleOrder.TICKET_TYPE, SampleOrder.AMOUNT, SampleOrder.ORDER_STATUS);
  }
}
