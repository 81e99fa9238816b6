package protocols.dubbo;

import java.util.LinkedHashMap;
import java.util.Map;
import protocols.rpc.RpcSettings;

/**
 * The reference parameters that decide how long Dubbo's and Triple's client keeps, waits for and
 * remakes a connection: each one here because Dubbo's default failed a run of the lab's.
 */
final class DubboConnectionSettings {
  /** A lost connection is retried every max(least-reconnect-duration, heartbeat) ms. */
  static final int RECONNECT_MILLIS = 1_000;
  /** Dubbo's own connect.timeout default: the least a connection may take, whatever the call timeout. */
  private static final long DEFAULT_CONNECT_MILLIS = 3_000;
  private static final long MAX_TLS_CONNECT_MILLIS = 10_000;

  private DubboConnectionSettings() {
  }

  /** The parameters for a reference whose calls time out after {@code settings.timeoutMillis()}. */
  static Map<String, String> of(RpcSettings settings) {
    Map<String, String> parameters = new LinkedHashMap<>();
    // By default every 60 s: a restarted server went unused for 45-50 s. Retry every second instead.
    parameters.put("heartbeat", Integer.toString(RECONNECT_MILLIS));
    parameters.put("dubbo.application.least-reconnect-duration", Integer.toString(RECONNECT_MILLIS));
    // A connection that has read nothing for heartbeat.timeout (3 heartbeats by default: 3 s) is closed and
    // made again, a first call still waiting on it (behind a slow TLS handshake, or to a cold server) and
    // all: "SSLEngine closed already", "Channel ... is inactive". Wait at least the call's own timeout.
    long callMillis = Math.min(Integer.MAX_VALUE - RECONNECT_MILLIS, settings.timeoutMillis());
    parameters.put("heartbeat.timeout", Long.toString(Math.max(3L * RECONNECT_MILLIS, callMillis + RECONNECT_MILLIS)));
    // Triple's connect waits for the server's HTTP/2 preface (after the TLS handshake) within connect.timeout,
    // 3 s by default: a fresh server on a saturated machine took longer, plaintext and over TLS, and the first
    // call failed before its own timeout. Over TLS at most 10 s: a refused handshake does not end that wait,
    // so a bad certificate waits it whole (the probe's 40 s would be 40 s per bad certificate).
    long connectMillis = Math.max(DEFAULT_CONNECT_MILLIS, callMillis);
    parameters.put("connect.timeout", Long.toString(settings.tls() == null ? connectMillis
        : Math.min(connectMillis, MAX_TLS_CONNECT_MILLIS)));
    return parameters;
  }
}
