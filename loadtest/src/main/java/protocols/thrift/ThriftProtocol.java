package protocols.thrift;

import protocols.rpc.ClientPath;
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
  private final AsyncPath asyncPath;

  /** Which client makes the async and callback calls. */
  public enum AsyncPath {
    /** Thrift's own: the generated AsyncClient on TAsyncClientManager's selector threads; the reference. */
    MANAGER("manager"),
    /** The generated blocking client's send_/recv_ halves over the lab's framed connections on Gatling's loops. */
    LOOPS("loops");

    private final String label;

    AsyncPath(String label) {
      this.label = label;
    }

    /** Its -Dthrift.client value. */
    public String label() {
      return label;
    }

    /** The path named {@code label}. */
    public static AsyncPath of(String label) {
      for (AsyncPath p : values()) {
        if (p.label.equals(label)) {
          return p;
        }
      }
      throw new IllegalArgumentException("thrift async path must be manager or loops, got '" + label + "'");
    }
  }

  ThriftProtocol(RpcSettings settings, String wireProtocol) {
    this(settings, wireProtocol, AsyncPath.MANAGER);
  }

  private ThriftProtocol(RpcSettings settings, String wireProtocol, AsyncPath asyncPath) {
    super(settings, new Spec<>(KEY, "thrift", DEFAULT_MAX_FRAME, s -> new ThriftProtocol(s, wireProtocol, asyncPath),
        (p, loops) -> new ThriftClient(p.settings(), WireProtocols.factory(wireProtocol), p.maxMessageBytes(), asyncPath,
            loops)));
    this.wireProtocol = wireProtocol;
    this.asyncPath = asyncPath;
  }

  /** binary (Thrift's default) or compact; the server must use the same. */
  public ThriftProtocol wireProtocol(String name) {
    WireProtocols.factory(name); // rejects an unknown name now, not at run time
    return new ThriftProtocol(settings(), name, asyncPath);
  }

  /**
   * Which client makes async and callback calls: Thrift's own async client (the default, the reference),
   * or {@link AsyncPath#LOOPS}, the generated client's halves on Gatling's event loops (a request then
   * needs its {@code .halves(...)}).
   */
  public ThriftProtocol asyncPath(AsyncPath path) {
    return new ThriftProtocol(settings(), wireProtocol, java.util.Objects.requireNonNull(path, "path"));
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
    return asyncPath == AsyncPath.LOOPS ? "the loops path's future, completed into the callback: the same path as"
        + " async mode" : "the async client's AsyncMethodCallback, its only async API; async mode completes a future"
        + " from the same callback, so the two modes are one path";
  }

  @Override
  public ClientPath clientPath() {
    if (asyncPath == AsyncPath.LOOPS) {
      return new ClientPath("one per call in flight on each loop",
          "one per call in flight (a Thrift connection carries one call at a time), each Gatling event"
          + " loop keeping its own", 0, "the call and its reply on the user's own loop, its connection's (the"
          + " generated client's send_/recv_ halves over the lab's framed connections)");
    }
    return new ClientPath("one per call in flight in a pool",
        "one per call in flight (a Thrift client carries one call at a time), pooled", 2,
        "the call, queued to a TAsyncClientManager's selector thread (which the queue wakes); the reply, read and"
        + " completed there, to the user's loop; and the pool's lock when the connection is taken and given back");
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
    return Map.of("protocol", wireProtocol, "asyncClient", asyncPath == AsyncPath.LOOPS
        ? "loops: the generated Client's send_/recv_ halves over the lab's framed connections on Gatling's event loops"
        : "manager: Thrift's generated AsyncClient on TAsyncClientManager selector threads");
  }
}
