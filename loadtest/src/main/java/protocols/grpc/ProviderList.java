package protocols.grpc;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import protocols.rpc.HostPort;

/**
 * gRPC's own name resolution handed a fixed list of providers: the channel's load-balancing policy
 * ({@code round_robin}) then keeps a subchannel per provider and spreads calls over the ready ones.
 * grpc-java resolves one name to one address set; a fixed list of several has no built-in scheme.
 */
final class ProviderList extends NameResolver.Factory {
  static final String SCHEME = "providers";
  private final List<HostPort> providers;

  ProviderList(List<HostPort> providers) {
    this.providers = List.copyOf(providers);
  }

  /** The channel's target: any name of this scheme resolves to the list. */
  static String target() {
    return SCHEME + ":///echo";
  }

  @Override
  public NameResolver newNameResolver(URI target, NameResolver.Args args) {
    if (!SCHEME.equals(target.getScheme())) {
      return null;
    }
    return new NameResolver() {
      @Override
      public String getServiceAuthority() {
        return providers.get(0).toString();
      }

      @Override
      public void start(Listener2 listener) {
        List<EquivalentAddressGroup> groups = providers.stream()
            .map(p -> new EquivalentAddressGroup(new InetSocketAddress(p.host(), p.port()))).toList();
        listener.onResult(ResolutionResult.newBuilder().setAddressesOrError(
            io.grpc.StatusOr.fromValue(groups)).build());
      }

      @Override
      public void shutdown() {
        // nothing held
      }
    };
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }
}
