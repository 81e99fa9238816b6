package protocols.thrift;

import contract.SampleOrder;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import java.util.List;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcRequestBuilder;

/** The Thrift DSL: {@code thrift} is the protocol, {@code thrift("echo").hello(...)} a request. */
public final class ThriftDsl {
  /** The protocol builder, with Thrift's defaults (127.0.0.1:9090, binary, async). */
  public static final ThriftProtocolBuilder thrift = ThriftProtocolBuilder.DEFAULT;

  /** Thrift in an echo run; {@code -Dthrift.protocol=binary|compact} sets both sides. */
  public static final EchoFramework<Order> ECHO = EchoFramework.<Order>of("thrift", "servers.thrift.ThriftEchoServer", "--max-frame",
          p -> thrift.wireProtocol(wireProtocol(p)), ThriftDsl::thrift, ThriftDsl::order)
      .withServerArgs(p -> List.of("--protocol", wireProtocol(p)));

  private ThriftDsl() {}

  /** A request named {@code name} (Gatling EL allowed). */
  public static RpcRequestBuilder<Order, Order> thrift(String name) {
    return new RpcRequestBuilder<>(ThriftProtocol.KEY, name);
  }

  private static String wireProtocol(LoadParams params) {
    return params.choice("thrift.protocol", WireProtocols.DEFAULT, WireProtocols.SUPPORTED);
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
