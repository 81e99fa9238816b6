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

  /** Ice's own ACM timeout of a client's connections (Ice.ACM.Client.Timeout), seconds. */
  public static final int DEFAULT_ACM_TIMEOUT = 60;

  /**
   * What the communicator is started with beyond the shared settings.
   *
   * @param adapterId through IceGrid, where the objects are
   * @param clientThreads Ice.ThreadPool.Client.Size; 0: one per core
   * @param acmTimeout Ice.ACM.Client.Timeout, seconds; 0: no connection management
   */
  record Options(String adapterId, int clientThreads, int acmTimeout) {
  }

  private final Options options;

  IceProtocol(RpcSettings settings) {
    this(settings, new Options(IceSettings.REPLICA_GROUP, 0, DEFAULT_ACM_TIMEOUT));
  }

  private IceProtocol(RpcSettings settings, Options options) {
    super(settings, new Spec<>(KEY, "ice", IceSettings.DEFAULT_MAX_MESSAGE, s -> new IceProtocol(s, options),
        (p, loops) -> new IceClient(p.settings(), p.maxMessageBytes(), options, loops)));
    this.options = options;
  }

  /**
   * The threads of Ice's client thread pool (Ice.ThreadPool.Client.Size), which read the replies and
   * complete the calls; 0 (the default) one per core.
   */
  public IceProtocol clientThreads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("Ice's client threads are 0 (one per core) or more, got " + threads);
    }
    return new IceProtocol(settings(), new Options(options.adapterId(), threads, options.acmTimeout()));
  }

  /**
   * Ice's active connection management of the client's connections (Ice.ACM.Client.Timeout): a
   * connection idle this long is closed, and heartbeats keep a busy one open; 0 turns it off. Ice's
   * default is {@value #DEFAULT_ACM_TIMEOUT} s.
   */
  public IceProtocol acmTimeout(int seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("Ice's ACM timeout is 0 (off) or more seconds, got " + seconds);
    }
    return new IceProtocol(settings(), new Options(options.adapterId(), options.clientThreads(), seconds));
  }

  /** Through IceGrid: the adapter id or replica group the objects are on (default the echo servers' {@value IceSettings#REPLICA_GROUP}). */
  public IceProtocol adapterId(String id) {
    if (id == null || id.isBlank() || id.contains("@") || id.contains(":")) {
      throw new IllegalArgumentException("an Ice adapter id is a plain name, e.g. EchoGroup, got '" + id + "'");
    }
    return new IceProtocol(settings(), new Options(id, options.clientThreads(), options.acmTimeout()));
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
    d.put("clientThreads", IceClient.clientPoolSize(options.clientThreads())
        + (options.clientThreads() == 0 ? " (one per core)" : ""));
    d.put("acmTimeout", options.acmTimeout() == 0 ? "off" : options.acmTimeout() + " s");
    if (settings().viaRegistry().isPresent()) {
      d.put("adapterId", options.adapterId());
    }
    return d;
  }

  @Override
  public String callbackApi() {
    return "the *Async proxy method's CompletableFuture: Ice 3.7's Java mapping has no other async API, so"
        + " this is the async path";
  }
}
