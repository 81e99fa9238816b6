package protocols.rpc;

import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
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
  public ActionBuilder onSchedule(SendSchedule schedule) {
    return new ActionBuilder() {
      @Override
      public io.gatling.core.action.builder.ActionBuilder asScala() {
        return (ctx, next) -> {
          Built<C> b = build(ctx);
          return new RpcOpenAction<>(name, b.method(), payload, checks, b.components(), b.observer(), schedule, next);
        };
      }
    };
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return (ctx, next) -> {
      Built<C> b = build(ctx);
      return new RpcCallAction<>(name, b.method(), payload, checks, b.components(), b.observer(), next);
    };
  }

  private record Built<C extends RpcClient>(RpcComponents<C> components, RpcMethod<C, ?, ?> method0,
                                            RunObserver observer) {
    @SuppressWarnings("unchecked")
    <Req, Resp> RpcMethod<C, Req, Resp> method() {
      return (RpcMethod<C, Req, Resp>) method0;
    }
  }

  /** The run's observer, this framework's components and the prepared method; a failure to start is the observer's to tell. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Built<C> build(ScenarioContext ctx) {
    RunObserver observer = ctx.protocolComponentsRegistry().components(RpcRun.KEY).observer();
    try {
      RpcComponents<C> components = (RpcComponents<C>) ctx.protocolComponentsRegistry().components((RpcProtocolKey) key);
      observer.protocolUsed(components.protocol());
      RpcMethod<C, Req, Resp> prepared = components.prepare(method, name);
      observer.providersFound(components.protocol(), components.client().providersFound());
      return new Built<>(components, prepared, observer);
    } catch (IllegalStateException cannotStart) {
      throw observer.failedToStart(cannotStart);
    }
  }
}
