package protocols.dubbo;

import java.util.Set;
import protocols.rpc.Registry;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcSettings;
import protocols.rpc.Tls;

/** What Dubbo's two protocols (dubbo and Triple) share: one consumer, its TLS and its registry. */
abstract class DubboFamilyProtocol<P extends DubboFamilyProtocol<P>> extends RpcProtocol<P, DubboClient> {
  private final int consumerThreads;

  DubboFamilyProtocol(RpcSettings settings, Spec<P, DubboClient> spec, int consumerThreads) {
    super(settings, spec);
    this.consumerThreads = consumerThreads;
  }

  /**
   * The consumer's pool, where replies go from Dubbo's Netty thread (Triple: each frame of one): 0 (the
   * default) is Dubbo's cached pool, a thread per reply in hand; n a fixed pool of n threads and an unbounded queue.
   */
  public P consumerThreads(int threads) {
    return withConsumerThreads(DubboConsumerPool.checked(threads));
  }

  abstract P withConsumerThreads(int threads);

  int consumerThreadCount() {
    return consumerThreads;
  }

  /** The consumer pool's line of the protocol table. */
  String consumerPool() {
    return DubboConsumerPool.describe(consumerThreads);
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
