package protocols.netty;

import contract.SampleOrder;
import contract.pojo.Order;
import io.netty.channel.Channel;
import java.util.concurrent.CompletionStage;
import protocols.rpc.RpcSettings;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;

/**
 * The ceiling's DSL: {@code netty} is the protocol, {@code netty("echo").send(...)} an echo call (its
 * wire format has the one method).
 */
public final class NettyDsl {
  /** The protocol builder (127.0.0.1:7000, one connection, async). */
  public static final NettyProtocol netty = new NettyProtocol(RpcSettings.defaults(7000));

  /**
   * The echo, on the connection of the user's own event loop; sync mode waits for it on the sync pool
   * (the ceiling has no blocking client).
   */
  public static final RpcMethod<NettyClient, Order, Order> HELLO = new Hello();

  private NettyDsl() {}

  /** Called on the user's event loop: the client picks that loop's connection, and times the call out itself. */
  private record Hello() implements RpcMethod<NettyClient, Order, Order> {
    @Override
    public CompletionStage<Order> callAsync(NettyClient client, Order request) {
      return client.hello(request);
    }

    @Override
    public boolean enforcesTimeout() {
      return true;
    }
  }

  /** An echo request named {@code name} (Gatling EL allowed). */
  public static RpcRequest<NettyClient, Order, Order> netty(String name) {
    return RpcRequest.of(NettyProtocol.KEY, name, HELLO);
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
