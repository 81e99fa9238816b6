package protocols.rpc;

/** A {@code host:port} pair, parsed strictly so a typo fails with a clear message. */
public record HostPort(String host, int port) {

  public static HostPort parse(String value) {
    String v = value == null ? "" : value.trim();
    int colon = v.lastIndexOf(':');
    if (colon <= 0 || colon == v.length() - 1) {
      throw new IllegalArgumentException("expected host:port, e.g. 127.0.0.1:20880, got '" + value + "'");
    }
    String host = v.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(v.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port in '" + value + "' is not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port in '" + value + "' must be between 1 and 65535");
    }
    return new HostPort(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
