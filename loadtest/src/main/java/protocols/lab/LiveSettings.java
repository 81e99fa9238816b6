package protocols.lab;

/**
 * What a run shows while it runs: {@code -Dmetrics.port} (a Prometheus endpoint, off by default) on
 * {@code -Dmetrics.host} (loopback unless told), kept up {@code -Dmetrics.linger} seconds after the run
 * so a scrape sees its last figures, and {@code -Dlive} (a console line every N seconds; 1 by default,
 * 0 under CI, where the environment sets {@code CI}, unless asked); {@code -Dmetrics.serverPort}: the
 * first of the ports the embedded servers serve theirs on, one each.
 */
record LiveSettings(String host, int port, int lingerSeconds, int consoleSeconds, int serverPort) {
  static final String DEFAULT_HOST = "127.0.0.1";
  static final int DEFAULT_LINGER_SECONDS = 5;

  static LiveSettings of(LoadParams params) {
    int port = params.intParam("metrics.port", 0, 1, 65_535);
    String host = params.string("metrics.host", DEFAULT_HOST);
    int linger = params.intParam("metrics.linger", DEFAULT_LINGER_SECONDS, 0, 600);
    int console = params.intParam("live", System.getenv("CI") == null ? 1 : 0, 0, 3_600);
    int serverPort = params.intParam("metrics.serverPort", 0, 1, 65_535);
    return new LiveSettings(host, port, port == 0 ? 0 : linger, console, serverPort);
  }

  /** Whether anything is shown live. */
  boolean any() {
    return port > 0 || consoleSeconds > 0;
  }
}
