package protocols.netty;

import contract.SampleOrder;
import contract.pojo.Order;
import protocols.core.EchoFramework;
import protocols.core.RpcRequestBuilder;

/** The ceiling's DSL: {@code netty} is the protocol, {@code netty("echo").hello(...)} a request. */
public final class NettyDsl {
  /** The protocol builder (127.0.0.1:7000, one connection, async). */
  public static final NettyProtocolBuilder netty = NettyProtocolBuilder.DEFAULT;

  /** The ceiling (Netty, length-prefixed frames, Kryo) in an echo run. */
  public static final EchoFramework<Order> ECHO =
      EchoFramework.of("netty", "servers.netty.NettyEchoServer", "--max-frame", p -> netty, NettyDsl::netty, NettyDsl::order);

  private NettyDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> netty(String name) {
    return new RpcRequestBuilder<>(NettyProtocol.KEY, name);
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
