package protocols.lab;

import java.util.LinkedHashMap;
import java.util.Map;
import protocols.rpc.ClientPath;
import protocols.rpc.HostPort;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcSettings;

/** A protocol's table on the report and in the summary: where it calls, how, and its framework's own settings. */
final class ProtocolTable {
  private ProtocolTable() {}

  static Map<String, Object> of(RpcProtocol<?, ?> protocol) {
    RpcSettings s = protocol.settings();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("framework", protocol.framework());
    if (s.viaRegistry().isPresent()) {
      p.put("registry", s.registry().toString());
    } else {
      p.put(s.targets().size() == 1 ? "target" : "targets", String.join(", ",
          s.targets().stream().map(HostPort::toString).toList()));
    }
    if (s.viaRegistry().isPresent() || s.targets().size() > 1) {
      p.put("balancing", protocol.balancing());
    }
    p.put("mode", s.mode().label());
    p.put("timeoutMillis", s.timeoutMillis());
    if (s.mode() == InvocationMode.SYNC) {
      p.put("syncThreads", s.syncThreads());
    }
    if (s.mode() == InvocationMode.CALLBACK) {
      p.put("callback", protocol.callbackApi());
    }
    ClientPath path = protocol.clientPath();
    p.put("connections", s.connections() == 0 ? path.connections() : s.connections());
    p.put("hopsPerCall", path.describe(s.mode()));
    p.put("maxMessageBytes", protocol.maxMessageBytes());
    p.put("tls", s.viaTls().map(t -> "on: " + t.describe() + "; implementation " + protocol.tlsImplementation())
        .orElse("off (plaintext)"));
    p.putAll(protocol.describe());
    return p;
  }
}
