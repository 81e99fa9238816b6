package protocols.rpc;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where a client finds its providers when it does not call an address: a ZooKeeper for Dubbo, an
 * IceGrid registry's locator for Ice. Written {@code zookeeper://127.0.0.1:2181}.
 *
 * @param kind which registry
 * @param address its client endpoint
 */
public record Registry(Kind kind, HostPort address) {

  /** The registries the lab's frameworks use; each framework says which it speaks. */
  public enum Kind {
    /** Apache ZooKeeper: Dubbo's registry of interface-level provider URLs. */
    ZOOKEEPER("zookeeper"),
    /** ZeroC IceGrid: its registry's locator resolves an adapter or replica group to endpoints. */
    ICEGRID("icegrid");

    private final String scheme;

    Kind(String scheme) {
      this.scheme = scheme;
    }

    /** The name users write: in -Dregistry and before {@code ://}. */
    public String scheme() {
      return scheme;
    }

    /** The kind named {@code scheme}, or one line naming those there are. */
    public static Kind of(String scheme) {
      return Arrays.stream(values()).filter(k -> k.scheme.equals(scheme)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("registry must be one of "
              + String.join("|", Arrays.stream(values()).map(Kind::scheme).toList()) + ", got '" + scheme + "'"));
    }
  }

  public Registry {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(address, "address");
  }

  public static Registry zookeeper(String host, int port) {
    return new Registry(Kind.ZOOKEEPER, new HostPort(host, port));
  }

  public static Registry icegrid(String host, int port) {
    return new Registry(Kind.ICEGRID, new HostPort(host, port));
  }

  /** {@code zookeeper://host:port} or {@code icegrid://host:port}. */
  public static Registry parse(String value) {
    String v = value == null ? "" : value.trim();
    int sep = v.indexOf("://");
    if (sep <= 0) {
      throw new IllegalArgumentException("a registry is written scheme://host:port, e.g. zookeeper://127.0.0.1:2181,"
          + " got '" + value + "'");
    }
    return new Registry(Kind.of(v.substring(0, sep)), HostPort.parse(v.substring(sep + 3)));
  }

  @Override
  public String toString() {
    return kind.scheme() + "://" + address;
  }
}
