package protocols.lab;

import java.util.List;
import java.util.Optional;
import protocols.rpc.HostPort;
import protocols.rpc.Registry;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcProtocol;
import protocols.rpc.Tls;

/**
 * Where a run's client finds its servers: one address or several, called directly, or a registry.
 *
 * @param targets the providers' addresses (provider 1 first)
 * @param registry the registry they are found through instead, or null
 * @param tls how the client speaks TLS to them, or null: plaintext
 */
public record Endpoints(List<HostPort> targets, Registry registry, Tls tls) {
  public Endpoints {
    targets = List.copyOf(targets);
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("no server address");
    }
  }

  public Endpoints(List<HostPort> targets, Registry registry) {
    this(targets, registry, null);
  }

  /** One server at {@code target}, called directly. */
  public static Endpoints direct(HostPort target) {
    return new Endpoints(List.of(target), null);
  }

  /** The same spoken to over TLS as {@code newTls} says (null: plaintext). */
  public Endpoints withTls(Tls newTls) {
    return new Endpoints(targets, registry, newTls);
  }

  public Optional<Registry> viaRegistry() {
    return Optional.ofNullable(registry);
  }

  /** Whether there is more to it than one address called directly. */
  public boolean deployed() {
    return registry != null || targets.size() > 1;
  }

  /** {@code protocol} calling these endpoints. */
  <C extends RpcClient> RpcProtocol<?, C> applyTo(RpcProtocol<?, C> protocol) {
    RpcProtocol<?, C> direct = protocol.targets(targets.toArray(HostPort[]::new));
    RpcProtocol<?, C> found = registry == null ? direct : direct.registry(registry);
    return tls == null ? found : found.tls(tls);
  }

  /** As a user reads it: "127.0.0.1:20880", "3 providers via zookeeper://127.0.0.1:2181". */
  @Override
  public String toString() {
    String providers = targets.size() == 1 ? targets.get(0).toString() : targets.size() + " providers " + targets;
    return (registry == null ? providers : providers + " via " + registry) + (tls == null ? "" : " over TLS");
  }
}
