package protocols.thrift;

import contract.thrift.WireProtocols;
import java.util.Map;
import java.util.Set;
import protocols.rpc.InvocationMode;
import protocols.rpc.Tls;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/** {@code thrift.target("127.0.0.1", 9090).wireProtocol("compact")...}: framed transport; immutable. */
public final class ThriftProtocol extends RpcProtocol<ThriftProtocol, ThriftClient> {
  public static final RpcProtocolKey<ThriftProtocol> KEY = new RpcProtocolKey<>(ThriftProtocol.class);

  /** The echo server's --max-frame default. */
  static final int DEFAULT_MAX_FRAME = 1024 * 1024;

  private final String wireProtocol;

  ThriftProtocol(RpcSettings settings, String wireProtocol) {
    super(settings, new Spec<>(KEY, "thrift", DEFAULT_MAX_FRAME, s -> new ThriftProtocol(s, wireProtocol),
        (p, loops) -> new ThriftClient(p.settings(), WireProtocols.factory(wireProtocol), p.maxMessageBytes())));
    this.wireProtocol = wireProtocol;
  }

  /** binary (Thrift's default) or compact; the server must use the same. */
  public ThriftProtocol wireProtocol(String name) {
    WireProtocols.factory(name); // rejects an unknown name now, not at run time
    return new ThriftProtocol(settings(), name);
  }

  @Override
  protected String noTls(Tls tls) {
    return tls.provider() == Tls.Provider.DEFAULT || tls.provider() == Tls.Provider.JDK ? null
        : "Thrift's TLS runs on the JDK's JSSE only";
  }

  @Override
  public Set<InvocationMode> tlsModes() {
    return Set.of(InvocationMode.SYNC);
  }

  @Override
  public String tlsImplementation() {
    return settings().viaTls().map(t -> "the JDK's (JSSE): Thrift's blocking TSocket over an SSLSocket (its async"
        + " client has none); the server is TThreadPoolServer, a thread per connection").orElse("none");
  }

  @Override
  public String callbackApi() {
    return "the async client's AsyncMethodCallback, its only async API; async mode completes a future from"
        + " the same callback, so the two modes are one path";
  }

  @Override
  public String balancing() {
    return settings().targets().size() > 1
        ? "the lab's client-side list (Thrift has no discovery or balancing): each new pooled connection goes to the"
        + " next provider in turn, and a call uses whichever connection is free"
        : "one server";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("protocol", wireProtocol);
  }
}
