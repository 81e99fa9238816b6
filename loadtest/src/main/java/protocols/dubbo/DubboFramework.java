package protocols.dubbo;

import contract.dubbo.DubboSerialization;
import contract.pojo.Order;
import java.util.List;
import protocols.core.EchoFramework;
import protocols.core.LoadParams;
import protocols.core.RpcProtocolBuilder;
import protocols.core.RpcRequestBuilder;

/** Dubbo in an echo run; {@code -Dserialization=hessian2|kryo|fastjson2} sets both sides. */
public final class DubboFramework extends EchoFramework<Order> {

  @Override
  public String name() {
    return "dubbo";
  }

  @Override
  public String serverMainClass() {
    return "servers.dubbo.DubboEchoServer";
  }

  private static String serialization(LoadParams params) {
    return params.choice("serialization", DubboSerialization.DEFAULT, DubboSerialization.SUPPORTED);
  }

  @Override
  public List<String> serverArgs(LoadParams params) {
    return List.of("--serialization", serialization(params));
  }

  @Override
  public RpcProtocolBuilder<?> protocol(LoadParams params) {
    return DubboDsl.dubbo.serialization(serialization(params));
  }

  @Override
  public RpcRequestBuilder<Order, Order> request(String name) {
    return DubboDsl.dubbo(name);
  }

  @Override
  public Order order(long orderId) {
    return DubboDsl.order(orderId);
  }
}
