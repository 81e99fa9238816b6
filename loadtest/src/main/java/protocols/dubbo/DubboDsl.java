package protocols.dubbo;

import contract.SampleOrder;
import contract.dubbo.DubboSerialization;
import contract.pojo.Order;
import java.util.List;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcRequestBuilder;

/**
 * The Dubbo DSL, in Gatling's style: {@code dubbo} is the protocol, {@code dubbo("echo").hello(...)}
 * a request.
 */
public final class DubboDsl {
  /** The protocol builder, with Dubbo's defaults (127.0.0.1:20880, hessian2, async). */
  public static final DubboProtocolBuilder dubbo = DubboProtocolBuilder.DEFAULT;

  /** Dubbo in an echo run; {@code -Dserialization=hessian2|kryo|fastjson2} sets both sides. */
  public static final EchoFramework<Order> ECHO = EchoFramework.<Order>of("dubbo", "servers.dubbo.DubboEchoServer", "--payload",
          p -> dubbo.serialization(serialization(p)), DubboDsl::dubbo, DubboDsl::order)
      .withServerArgs(p -> List.of("--serialization", serialization(p)));

  private DubboDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> dubbo(String name) {
    return new RpcRequestBuilder<>(DubboProtocol.KEY, name);
  }

  private static String serialization(LoadParams params) {
    return params.choice("serialization", DubboSerialization.DEFAULT, DubboSerialization.SUPPORTED);
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
