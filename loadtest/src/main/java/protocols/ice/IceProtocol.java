package protocols.ice;

import protocols.rpc.ClientPath;
import protocols.rpc.InvocationMode;
import protocols.rpc.Tls;
import contract.zeroc.IceSettings;
import java.util.Map;
import java.util.EnumSet;
import java.util.Set;
import contract.zeroc.IceTls;
import protocols.rpc.Registry;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/**
 * {@code ice.target("127.0.0.1", 10000)...}: the shared settings; maxMessageBytes is Ice.MessageSizeMax.
 * Through IceGrid ({@code registry(Registry.icegrid(...))}) its proxies are indirect: {@code identity@group}.
 */
public final class IceProtocol extends RpcProtocol<IceProtocol, IceClient> {
  public static final RpcProtocolKey<IceProtocol> KEY = new RpcProtocolKey<>(IceProtocol.class);

  private final String adapterId;
  private final int clientThreads;

  IceProtocol(RpcSettings settings) {
    this(settings, IceSettings.REPLICA_GROUP, 0);
  }

  private IceProtocol(RpcSettings settings, String adapterId, int clientThreads) {
    super(settings, new Spec<>(KEY, "ice", IceSettings.DEFAULT_MAX_MESSAGE,
        s -> new IceProtocol(s, adapterId, clientThreads),
        (p, loops) -> new IceClient(p.settings(), p.maxMessageBytes(), adapterId, clientThreads, loops)));
    this.adapterId = adapterId;
    this.clientThreads = clientThreads;
  }

  /**
   * The threads of Ice's client thread pool (Ice.ThreadPool.Client.Size), which read the replies and
   * complete the calls; 0 (the default) one per core.
   */
  public IceProtocol clientThreads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("Ice's client threads are 0 (one per core) or more, got " + threads);
    }
    return new IceProtocol(settings(), adapterId, threads);
  }

  /** Through IceGrid: the adapter id or replica group the objects are on (default the echo servers' {@value IceSettings#REPLICA_GROUP}). */
  public IceProtocol adapterId(String id) {
    if (id == null || id.isBlank() || id.contains("@") || id.contains(":")) {
      throw new IllegalArgumentException("an Ice adapter id is a plain name, e.g. EchoGroup, got '" + id + "'");
    }
    return new IceProtocol(settings(), id, clientThreads);
  }

  @Override
  protected String noTls(Tls tls) {
    if (!IceTls.available()) {
      return "no TLS: " + IceTls.MISSING;
    }
    if (tls.serverName().isPresent()) {
      return "IceSSL checks the server's name against the endpoint's host; it has no name to override it with";
    }
    return tls.provider() == Tls.Provider.DEFAULT || tls.provider() == Tls.Provider.JDK ? null
        : "IceSSL runs on the JDK's JSSE only";
  }

  @Override
  public Set<InvocationMode> tlsModes() {
    return IceTls.available() ? EnumSet.allOf(InvocationMode.class) : Set.of();
  }

  @Override
  public String tlsImplementation() {
    return settings().viaTls().map(t -> "the JDK's (JSSE), through IceSSL (ssl endpoints)")
        .orElse(IceTls.available() ? "none" : "none (" + IceTls.MISSING + ")");
  }

  @Override
  public Set<Registry.Kind> registries() {
    return Set.of(Registry.Kind.ICEGRID);
  }

  @Override
  public String balancing() {
    return settings().viaRegistry().isPresent() || settings().targets().size() > 1
        ? "Ice's own: proxies with connection caching off, so each call picks one of the endpoints (random)"
        : "one server";
  }

  @Override
  public ClientPath clientPath() {
    return new ClientPath("one per event loop", "one per Gatling event loop (a proxy with its own connection id each), read by Ice's"
        + " client thread pool", 1, "the call sent on the user's loop, on its loop's connection; the reply, read and"
        + " completed on Ice's client thread, to the user's loop");
  }

  @Override
  public Map<String, Object> describe() {
    Map<String, Object> d = new java.util.LinkedHashMap<>();
    d.put("clientThreads", IceClient.clientPoolSize(clientThreads) + (clientThreads == 0 ? " (one per core)" : ""));
    if (settings().viaRegistry().isPresent()) {
      d.put("adapterId", adapterId);
    }
    return d;
  }

  @Override
  public String callbackApi() {
    return "the *Async proxy method's CompletableFuture: Ice 3.7's Java mapping has no other async API, so"
        + " this is the async path";
  }
}
