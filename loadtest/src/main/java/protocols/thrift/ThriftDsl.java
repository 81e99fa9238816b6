package protocols.thrift;

import contract.SampleOrder;
import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.async.TAsyncClient;
import protocols.core.RpcFramework;
import protocols.core.RpcSettings;

/**
 * The Thrift DSL: {@code thrift} is the protocol;
 * {@code thrift("name").client(OrderService.AsyncClient.class).call((c, req, reply) -> c.place(req, reply))}
 * calls a method of your generated service.
 */
public final class ThriftDsl {
  /** The protocol builder, with Thrift's defaults (127.0.0.1:9090, binary, async). */
  public static final ThriftProtocol thrift = new ThriftProtocol(RpcSettings.defaults(9090), WireProtocols.DEFAULT);

  /** {@code -Dthrift.protocol=binary|compact} sets both sides. */
  public static final RpcFramework<ThriftClient, Order> FRAMEWORK = RpcFramework.<ThriftClient, Order>of("thrift",
          TServiceClient.class, "servers.thrift.ThriftEchoServer", "--max-frame",
          p -> thrift.wireProtocol(p.string("thrift.protocol", WireProtocols.DEFAULT)),
          new ThriftMethod<>(MobileService.AsyncClient.class, MobileService.AsyncClient::hello, MobileService.Client.class,
              MobileService.Client::hello, null, null),
          ThriftDsl::order)
      .withParam("thrift.protocol", WireProtocols.DEFAULT, "--protocol", WireProtocols.SUPPORTED);

  private ThriftDsl() {}

  /** A request named {@code name} (Gatling EL allowed); then say which client. */
  public static Named thrift(String name) {
    return () -> name;
  }

  /** A named Thrift request waiting for its client class. */
  @FunctionalInterface
  public interface Named {
    String name();

    /** The generated async client of your service, e.g. {@code OrderService.AsyncClient.class}. */
    default <A extends TAsyncClient> ThriftMethod.Client<A> client(Class<A> asyncClient) {
      return new ThriftMethod.Client<>(name(), asyncClient);
    }
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return SampleOrder.make(Order::new, orderId, name);
  }
}
