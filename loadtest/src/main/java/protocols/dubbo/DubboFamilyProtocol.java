package protocols.dubbo;

import java.util.Set;
import protocols.rpc.Registry;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcSettings;
import protocols.rpc.Tls;

/** What Dubbo's two protocols (dubbo and Triple) share: one consumer, its TLS and its registry. */
abstract class DubboFamilyProtocol<P extends DubboFamilyProtocol<P>> extends RpcProtocol<P, DubboClient> {

  DubboFamilyProtocol(RpcSettings settings, Spec<P, DubboClient> spec) {
    super(settings, spec);
  }

  @Override
  protected String noTls(Tls tls) {
    return DubboTls.noTls(tls);
  }

  @Override
  public boolean checksServerName() {
    return false;
  }

  @Override
  public String tlsImplementation() {
    return DubboTls.tlsImplementation(settings());
  }

  /** Dubbo's TLS client needs Netty's default host check off, JVM-wide, before any TLS client exists. */
  @Override
  public void beforeTlsClients() {
    DubboTls.allowEnginesWithoutHost();
  }

  @Override
  public Set<Registry.Kind> registries() {
    return Set.of(Registry.Kind.ZOOKEEPER);
  }
}
