package protocols.ice;

import contract.SampleOrder;
import contract.zeroc.Order;
import protocols.core.EchoFramework;
import protocols.core.RpcRequestBuilder;

/** The Ice DSL: {@code ice} is the protocol, {@code ice("echo").hello(...)} a request. */
public final class IceDsl {
  /** The protocol builder, with Ice's defaults (127.0.0.1:10000, one shared connection, async). */
  public static final IceProtocolBuilder ice = IceProtocolBuilder.DEFAULT;

  /** ZeroC Ice in an echo run. */
  public static final EchoFramework<Order> ECHO =
      EchoFramework.of("ice", "servers.ice.IceEchoServer", "--max-message", p -> ice, IceDsl::ice, IceDsl::order);

  private IceDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> ice(String name) {
    return new RpcRequestBuilder<>(IceProtocol.KEY, name);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return new Order(orderId, SampleOrder.PHONE, name, SampleOrder.ORDER_NUM, SampleOrder.ORDER_DATE,
        SampleOrder.TICKET_TYPE, SampleOrder.AMOUNT, SampleOrder.ORDER_STATUS);
  }
}
