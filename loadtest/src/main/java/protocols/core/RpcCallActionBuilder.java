package protocols.core;

import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.ArrayList;
import java.util.List;
import scala.Function1;

/**
 * A complete RPC request, ready for {@code exec}. Immutable: every method returns a new builder, so
 * one builder can be shared by several scenarios.
 */
public final class RpcCallActionBuilder<Req, Resp> implements ActionBuilder {
  private final RpcProtocolKey<? extends RpcProtocol<Req, Resp>> key;
  private final String name;
  private final Function1<Session, Validation<String>> requestName;
  private final Function1<Session, Validation<Object>> payload;
  private final boolean echoCheck;
  private final List<RpcCheck<Req, Resp>> checks;

  RpcCallActionBuilder(RpcProtocolKey<? extends RpcProtocol<Req, Resp>> key, String name,
                       Function1<Session, Validation<String>> requestName,
                       Function1<Session, Validation<Object>> payload, boolean echoCheck,
                       List<RpcCheck<Req, Resp>> checks) {
    this.key = key;
    this.name = name;
    this.requestName = requestName;
    this.payload = payload;
    this.echoCheck = echoCheck;
    this.checks = List.copyOf(checks);
  }

  /** Adds checks on the reply; a failing check makes the call a KO with the check's message. */
  @SafeVarargs
  public final RpcCallActionBuilder<Req, Resp> check(RpcCheck<Req, Resp>... more) {
    List<RpcCheck<Req, Resp>> all = new ArrayList<>(checks);
    all.addAll(List.of(more));
    return new RpcCallActionBuilder<>(key, name, requestName, payload, echoCheck, all);
  }

  /** Whether the reply must equal the request (default: true, the echo benchmark's contract). */
  public RpcCallActionBuilder<Req, Resp> echoCheck(boolean enabled) {
    return new RpcCallActionBuilder<>(key, name, requestName, payload, enabled, checks);
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    List<RpcCheck<Req, Resp>> all = new ArrayList<>();
    if (echoCheck) {
      all.add((RpcCheck) RpcCheck.echo());
    }
    all.addAll(checks);
    return (ctx, next) -> {
      RpcComponents<Req, Resp> components =
          (RpcComponents<Req, Resp>) ctx.protocolComponentsRegistry().components((RpcProtocolKey) key);
      return new RpcCallAction<>(name, requestName, payload, all, components, next);
    };
  }
}
