package contract.dubbo;

/**
 * A loopback host as Dubbo's Triple must be given it. Dubbo binds its port-unification server to
 * 0.0.0.0 when asked for any "127." address (NetUtils.isInvalidLocalHost), and its client connects to
 * the machine's network address instead (filterLocalHost). The same IPv4 address as one decimal number
 * (127.0.0.1 is 2130706433) passes that check and resolves to exactly that address.
 */
public final class TripleHost {
  private TripleHost() {}

  /** {@code host} unchanged unless it is a dotted 127.x address, which becomes its decimal form. */
  public static String exact(String host) {
    String[] parts = host.split("\\.");
    if (parts.length != 4 || !host.startsWith("127.")) {
      return host;
    }
    long n = 0;
    for (String p : parts) {
      n = n * 256 + Integer.parseInt(p);
    }
    return Long.toString(n);
  }
}
