package protocols.rpc;

import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A framework's Gatling protocol and its builder in one immutable value ({@code grpc.target(...)}):
 * the settings every framework shares, and in the subclass whatever the framework adds. Each framework
 * has its own subclass because Gatling keys protocols by class.
 *
 * @param <P> the framework's protocol, returned by every setter
 * @param <C> the framework's client
 */
public abstract class RpcProtocol<P extends RpcProtocol<P, C>, C extends RpcClient>
    implements Protocol, ProtocolBuilder {
  private final RpcSettings settings;
  private final Spec<P, C> spec;

  /**
   * What a framework's protocol is made of, besides the settings: Gatling's key for it, its name, its
   * own message size limit, how to copy it with other shared settings ({@code s -> new XProtocol(s, ...)})
   * and how to make its client ({@code (p, loops) -> new XClient(p.settings(), ...)}), given Gatling's
   * event loops in a run (null outside one) for a client that can do its I/O on them.
   */
  public record Spec<P, C>(RpcProtocolKey<?> key, String framework, int defaultMaxMessageBytes,
                           Function<RpcSettings, P> copy, BiFunction<P, EventLoopGroup, C> client) {}

  protected RpcProtocol(RpcSettings settings, Spec<P, C> spec) {
    this.settings = settings;
    this.spec = spec;
  }

  /** A copy of this protocol with other shared settings. */
  private P with(RpcSettings newSettings) {
    return spec.copy().apply(newSettings);
  }

  /** Gatling's key for this framework's protocol. */
  public final RpcProtocolKey<?> key() {
    return spec.key();
  }

  /** The framework's name, for logs and errors. */
  public final String framework() {
    return spec.framework();
  }

  /** Creates the framework's client outside Gatling (the probe, the plain driver). */
  public final C newClient() {
    return newClient(null);
  }

  /** Creates the framework's client for a run on Gatling's event loops; closed when the run ends. */
  @SuppressWarnings("unchecked")
  public final C newClient(EventLoopGroup gatlingLoops) {
    return spec.client().apply((P) this, gatlingLoops);
  }

  /** The framework's own settings, for the run summary (e.g. Dubbo's serialization). */
  public Map<String, Object> describe() {
    return Map.of();
  }

  /** What callback mode calls on this framework's client, as the run's protocol table says it. */
  public String callbackApi() {
    return SAME_AS_ASYNC;
  }

  /** {@link #callbackApi} of a framework whose callback mode is its async path. */
  protected static final String SAME_AS_ASYNC = "the async API, its future completed into the callback: the same"
      + " path as async mode";

  public final RpcSettings settings() {
    return settings;
  }

  /** The largest request or reply this protocol's client sends or accepts, in bytes. */
  public final int maxMessageBytes() {
    return settings.maxMessageBytes() > 0 ? settings.maxMessageBytes() : spec.defaultMaxMessageBytes();
  }

  @Override
  public final Protocol protocol() {
    return this;
  }

  /** The server to call. */
  public P target(String host, int port) {
    return with(settings.withTarget(host, port));
  }

  /** The server to call, as {@code host:port}. */
  public P target(String hostAndPort) {
    HostPort hp = HostPort.parse(hostAndPort);
    return target(hp.host(), hp.port());
  }

  /**
   * Several providers, called directly: the client spreads its calls over them as its framework does
   * ({@link #balancing}). The first is also {@link #target}.
   */
  public P targets(HostPort... providers) {
    return with(settings.withTargets(List.of(providers)));
  }

  /** The same as a list of {@code host:port}. */
  public P targets(List<String> providers) {
    return targets(providers.stream().map(HostPort::parse).toArray(HostPort[]::new));
  }

  /**
   * Find the providers through {@code registry} (one of {@link #registries}) instead of calling the
   * targets: the framework's own discovery, load balancing and failover.
   */
  public P registry(Registry registry) {
    if (!registries().contains(registry.kind())) {
      throw new IllegalArgumentException(framework() + " has no " + registry.kind().scheme() + " registry"
          + (registries().isEmpty() ? "; give it its providers with targets(...)"
          : "; it speaks " + String.join(", ", registries().stream().map(Registry.Kind::scheme).toList())));
    }
    return with(settings.withRegistry(registry));
  }

  /** The registries this framework's client can find its providers through; none by default. */
  public Set<Registry.Kind> registries() {
    return Set.of();
  }

  /** How this framework's client connects and hands each call between threads with the default connections. */
  public abstract ClientPath clientPath();

  /** How this framework's client spreads calls over several providers, as the run's protocol table says it. */
  public String balancing() {
    return "one connection per provider, calls in turn";
  }

  /**
   * Speak TLS as {@code tls} says: the server's certificate checked against its CAs, and the client's
   * own shown to a server that asks for one (mutual TLS). Refused in one line by a framework without
   * TLS ({@link #tlsImplementation}).
   */
  public P tls(Tls tls) {
    String why = noTls(tls);
    if (why != null) {
      throw new IllegalArgumentException(framework() + ": " + why);
    }
    return with(settings.withTls(Objects.requireNonNull(tls, "tls")));
  }

  /** Plaintext (the default). */
  public P plaintext() {
    return with(settings.withTls(null));
  }

  /** Why this framework's client cannot speak TLS as {@code tls} asks, or null when it can. */
  protected String noTls(Tls tls) {
    return null;
  }

  /** The modes this framework's client can make calls in over TLS (all, but for Thrift's). */
  public Set<InvocationMode> tlsModes() {
    return EnumSet.allOf(InvocationMode.class);
  }

  /** Whether the client checks that the server's certificate is for the host it calls (all but Dubbo's). */
  public boolean checksServerName() {
    return true;
  }

  /**
   * Made before the first TLS client of a JVM that will run this framework's over TLS: what its client
   * needs JVM-wide (Dubbo's: Netty's default host check off, docs/tls.md). Nothing for most.
   */
  public void beforeTlsClients() {
  }

  /** Which TLS implementation the client runs on with these settings, as the run's report says it. */
  public String tlsImplementation() {
    return "the JDK's (JSSE)";
  }

  /** Per-call timeout; a later reply is a KO "timeout after N ms". */
  public P timeout(Duration timeout) {
    return with(settings.withTimeout(timeout));
  }

  /** Invocation model: the framework's async API, its blocking call on the sync pool, or its callback API. */
  public P mode(InvocationMode mode) {
    return with(settings.withMode(mode));
  }

  public P async() {
    return mode(InvocationMode.ASYNC);
  }

  public P sync() {
    return mode(InvocationMode.SYNC);
  }

  /** Callback mode: the framework's callback API where it has one ({@link #callbackApi}). */
  public P callback() {
    return mode(InvocationMode.CALLBACK);
  }

  /** Threads of the sync pool (default 200); only used in sync mode. */
  public P syncThreads(int threads) {
    return with(settings.withSyncThreads(threads));
  }

  /** Connections (or channels) the users share; 0 keeps the framework's default. */
  public P connections(int connections) {
    return with(settings.withConnections(connections));
  }

  /** How long a user waits after a failed call before its next one (default 100 ms; timeouts wait already). */
  public P koPause(Duration pause) {
    return with(settings.withKoPause(pause));
  }

  /**
   * The largest request or reply the client sends or accepts, in bytes; 0 keeps the framework's
   * default. A call over it is a KO that names the limit. The server has a limit of its own.
   */
  public P maxMessageBytes(int bytes) {
    return with(settings.withMaxMessageBytes(bytes));
  }
}
