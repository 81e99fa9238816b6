package protocols.rpc;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.util.IdentityHashMap;
import java.util.Map;
import scala.Function1;

/** Gatling's key for one framework's protocol: it builds that framework's components once per run. */
public final class RpcProtocolKey<P extends RpcProtocol<P, ?>> implements ProtocolKey<P, RpcComponents<?>> {
  private final Class<P> protocolClass;

  public RpcProtocolKey(Class<P> protocolClass) {
    this.protocolClass = protocolClass;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Class<Protocol> protocolClass() {
    return (Class<Protocol>) (Class<?>) protocolClass;
  }

  @Override
  public P defaultProtocolValue(GatlingConfiguration configuration) {
    throw new IllegalStateException("no " + protocolClass.getSimpleName()
        + " configured: pass the framework's protocol to setUp(...).protocols(...)");
  }

  /**
   * Gatling asks for components once per scenario, with the same protocol instance when the protocol
   * is set on {@code setUp}; one client per protocol instance and run keeps "once per run" true
   * across the levels' scenarios.
   */
  @Override
  public Function1<P, RpcComponents<?>> newComponents(CoreComponents coreComponents) {
    Map<P, RpcComponents<?>> perProtocol = new IdentityHashMap<>();
    return protocol -> {
      synchronized (perProtocol) {
        return perProtocol.computeIfAbsent(protocol, p -> RpcComponents.create((RpcProtocol<?, ?>) p, coreComponents));
      }
    };
  }
}
