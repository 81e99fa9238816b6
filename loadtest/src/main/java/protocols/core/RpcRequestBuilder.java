package protocols.core;

import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.List;
import java.util.function.Function;

/**
 * First stage of a request, {@code dubbo("echo")}: it has a name and waits for its payload. Every
 * framework's MobileService has the one method {@code hello(Order)}, hence {@code hello(...)}.
 */
public final class RpcRequestBuilder<Req, Resp> {
  private final RpcProtocolKey<? extends RpcProtocol<Req, Resp>> key;
  private final String name;

  public RpcRequestBuilder(RpcProtocolKey<? extends RpcProtocol<Req, Resp>> key, String name) {
    this.key = key;
    this.name = name;
  }

  /** Sends the order a Gatling EL expression resolves to, e.g. {@code "#{order}"}. */
  public RpcCallActionBuilder<Req, Resp> hello(String orderExpression) {
    return new RpcCallActionBuilder<>(key, name, Expressions.toStringExpression(name),
        Expressions.toExpression(orderExpression, Object.class), true, List.of());
  }

  /** Sends the order a function of the session returns. */
  @SuppressWarnings("unchecked")
  public RpcCallActionBuilder<Req, Resp> hello(Function<Session, Req> order) {
    return new RpcCallActionBuilder<>(key, name, Expressions.toStringExpression(name),
        Expressions.javaFunctionToExpression((Function<Session, Object>) (Function<Session, ?>) order), true,
        List.of());
  }
}
