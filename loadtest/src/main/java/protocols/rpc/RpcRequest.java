package protocols.rpc;

import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.List;
import java.util.function.Function;

/**
 * A named request to one method, waiting for its payload: {@code .send("#{order}")} or
 * {@code .send(session -> ...)}. A framework's request stages extend it with their own options
 * (headers, deadline, version) and say which {@link #method()} to call.
 *
 * @param <C> the framework's client
 * @param <Req> what the method is given
 * @param <Resp> what it returns
 */
public abstract class RpcRequest<C extends RpcClient, Req, Resp> {
  private final RpcProtocolKey<?> key;
  private final String name;

  protected RpcRequest(RpcProtocolKey<?> key, String name) {
    this.key = key;
    this.name = name;
  }

  /** The method this request calls, with the stage's options. */
  protected abstract RpcMethod<C, Req, Resp> method();

  /** What this request calls, as a method of the framework's client: for a driver outside Gatling. */
  public final RpcMethod<C, Req, Resp> calls() {
    return method();
  }

  /** The request's name (Gatling EL allowed). */
  public final String name() {
    return name;
  }

  /** Sends what a Gatling EL expression resolves to, e.g. {@code "#{order}"} or a JSON text with EL in it. */
  public final RpcCallActionBuilder<C, Req, Resp> send(String expression) {
    return new RpcCallActionBuilder<>(key, name, method(), Expressions.toExpression(expression, Object.class),
        List.of());
  }

  /** Sends what a function of the session returns. */
  @SuppressWarnings("unchecked")
  public final RpcCallActionBuilder<C, Req, Resp> send(Function<Session, Req> payload) {
    return new RpcCallActionBuilder<>(key, name, method(),
        Expressions.javaFunctionToExpression((Function<Session, Object>) (Function<Session, ?>) payload), List.of());
  }

  /** A request to a method that needs no stage options. */
  public static <C extends RpcClient, Req, Resp> RpcRequest<C, Req, Resp> of(RpcProtocolKey<?> key, String name,
                                                                             RpcMethod<C, Req, Resp> method) {
    return new RpcRequest<>(key, name) {
      @Override
      protected RpcMethod<C, Req, Resp> method() {
        return method;
      }
    };
  }
}
