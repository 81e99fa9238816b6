package protocols.core;

import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.ArrayList;
import java.util.List;
import scala.Function1;

/**
 * A complete RPC request, ready for {@code exec}: a method, its payload and its checks. Immutable:
 * every method returns a new builder, so one builder can be shared by several scenarios.
 */
public final class RpcCallActionBuilder<C extends RpcClient, Req, Resp> implements ActionBuilder {
  private final RpcProtocolKey<?> key;
  private final String name;
  private final RpcMethod<C, Req, Resp> method;
  private final Function1<Session, Validation<Object>> payload;
  private final List<RpcCheck<? super Req, ? super Resp>> checks;

  RpcCallActionBuilder(RpcProtocolKey<?> key, String name, RpcMethod<C, Req, Resp> method,
                       Function1<Session, Validation<Object>> payload, List<RpcCheck<? super Req, ? super Resp>> checks) {
    this.key = key;
    this.name = name;
    this.method = method;
    this.payload = payload;
    this.checks = List.copyOf(checks);
  }

  /** Adds checks on the outcome; a failing check makes the call a KO with the check's message. */
  @SafeVarargs
  public final RpcCallActionBuilder<C, Req, Resp> check(RpcCheck<? super Req, ? super Resp>... more) {
    List<RpcCheck<? super Req, ? super Resp>> all = new ArrayList<>(checks);
    all.addAll(List.of(more));
    return new RpcCallActionBuilder<>(key, name, method, payload, all);
  }

  /** The request's name (a Gatling expression). */
  public String name() {
    return name;
  }

  /** This call sent on an open-model level's schedule: the action of one of the level's senders. */
  ActionBuilder sender(OpenLoad.Level level) {
    return new ActionBuilder() {
      @Override
      @SuppressWarnings({"unchecked", "rawtypes"})
      public io.gatling.core.action.builder.ActionBuilder asScala() {
        return (ctx, next) -> {
          RpcComponents<C> components = (RpcComponents<C>) ctx.protocolComponentsRegistry().components((RpcProtocolKey) key);
          return new RpcOpenAction<>(name, components.prepare(method, name), payload, checks, components, level, next);
        };
      }
    };
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return (ctx, next) -> {
      RpcComponents<C> components = (RpcComponents<C>) ctx.protocolComponentsRegistry().components((RpcProtocolKey) key);
      return new RpcCallAction<>(name, components.prepare(method, name), payload, checks, components, next);
    };
  }
}
