package protocols.thrift;

import contract.thrift.Order;
import contract.thrift.WireProtocols;
import java.util.List;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcRequestBuilder;

/** Thrift in an echo run; {@code -Dthrift.protocol=binary|compact} sets both sides. */
public final class ThriftFramework extends EchoFramework<Order> {

  @Override
  public String name() {
    return "thrift";
  }

  @Override
  public String serverMainClass() {
    return "servers.thrift.ThriftEchoServer";
  }

  private static String wireProtocol(LoadParams params) {
    return params.choice("thrift.protocol", WireProtocols.DEFAULT, WireProtocols.SUPPORTED);
  }

  @Override
  public List<String> serverArgs(LoadParams params) {
    return List.of("--protocol", wireProtocol(params));
  }

  @Override
  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return ThriftDsl.thrift.wireProtocol(wireProtocol(params));
  }

  @Override
  public RpcRequestBuilder<Order, Order> request(String name) {
    return ThriftDsl.thrift(name);
  }

  @Override
  public Order order(long orderId) {
    return ThriftDsl.order(orderId);
  }
}
