package protocols.rpc;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings every framework's protocol shares. Immutable: each {@code with} returns a copy.
 *
 * @param host server host (the first of {@code targets})
 * @param port server port
 * @param timeout per call; a later reply is a KO "timeout after N ms"
 * @param mode async (default) or sync
 * @param syncThreads size of the sync pool (default 200, as in the write-up)
 * @param connections connections or channels the users share; 0 means the framework's default
 * @param koPause how long a user waits after a failed call (not a timeout) before its next one
 * @param maxMessageBytes the largest request or reply the client sends or accepts; 0 means the
 *     framework's default ({@link RpcProtocol#maxMessageBytes()})
 * @param targets every provider the client spreads its calls over, the first at host:port
 * @param registry where the client finds its providers instead, or null: it calls {@code targets}
 * @param tls how the client speaks TLS, or null: plaintext
 */
public record RpcSettings(String host, int port, Duration timeout, InvocationMode mode, int syncThreads, int connections,
                          Duration koPause, int maxMessageBytes, List<HostPort> targets, Registry registry, Tls tls) {

  /** The one default per-call timeout, for the DSL and for {@code -Dtimeout} alike. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(3000);
  public static final int DEFAULT_SYNC_THREADS = 200;
  /**
   * A dead server fails a call in microseconds; without a pause each user would loop on failures
   * (25,000-50,000 KO/s were seen). 100 ms bounds that to 10 KO/s per user and still shows a
   * recovery within a tenth of a second.
   */
  public static final Duration DEFAULT_KO_PAUSE = Duration.ofMillis(100);

  public RpcSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(mode, "mode");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    if (syncThreads < 1) {
      throw new IllegalArgumentException("syncThreads must be at least 1, got " + syncThreads);
    }
    Objects.requireNonNull(koPause, "koPause");
    if (koPause.isNegative()) {
      throw new IllegalArgumentException("koPause must not be negative, got " + koPause);
    }
    if (connections < 0) {
      throw new IllegalArgumentException("connections must be 0 (framework default) or more, got " + connections);
    }
    targets = List.copyOf(targets);
    if (targets.isEmpty() || !targets.get(0).equals(new HostPort(host, port))) {
      throw new IllegalArgumentException("the first target must be " + host + ":" + port + ", got " + targets);
    }
    if (maxMessageBytes < 0) {
      throw new IllegalArgumentException("maxMessageBytes must be 0 (framework default) or more, got "
          + maxMessageBytes);
    }
  }

  public static RpcSettings defaults(int port) {
    return new RpcSettings("127.0.0.1", port, DEFAULT_TIMEOUT, InvocationMode.ASYNC, DEFAULT_SYNC_THREADS, 0,
        DEFAULT_KO_PAUSE, 0, List.of(new HostPort("127.0.0.1", port)), null, null);
  }

  /** One provider at {@code newHost:newPort}, called directly. */
  public RpcSettings withTarget(String newHost, int newPort) {
    return withTargets(List.of(new HostPort(newHost, newPort)));
  }

  /** Providers called directly, the client spreading its calls over them as its framework does. */
  public RpcSettings withTargets(List<HostPort> all) {
    if (all.isEmpty()) {
      throw new IllegalArgumentException("targets needs at least one host:port");
    }
    HostPort first = all.get(0);
    return new RpcSettings(first.host(), first.port(), timeout, mode, syncThreads, connections, koPause,
        maxMessageBytes, all, null, tls);
  }

  /** Providers found through {@code newRegistry}, not called at the targets. */
  public RpcSettings withRegistry(Registry newRegistry) {
    return new RpcSettings(host, port, timeout, mode, syncThreads, connections, koPause, maxMessageBytes, targets,
        Objects.requireNonNull(newRegistry, "registry"), tls);
  }

  /** The registry the client finds its providers through, if it does not call its targets. */
  public Optional<Registry> viaRegistry() {
    return Optional.ofNullable(registry);
  }

  public RpcSettings withTimeout(Duration newTimeout) {
    return new RpcSettings(host, port, newTimeout, mode, syncThreads, connections, koPause, maxMessageBytes,
        targets, registry, tls);
  }

  public RpcSettings withMode(InvocationMode newMode) {
    return new RpcSettings(host, port, timeout, newMode, syncThreads, connections, koPause, maxMessageBytes,
        targets, registry, tls);
  }

  public RpcSettings withSyncThreads(int n) {
    return new RpcSettings(host, port, timeout, mode, n, connections, koPause, maxMessageBytes, targets, registry, tls);
  }

  public RpcSettings withConnections(int n) {
    return new RpcSettings(host, port, timeout, mode, syncThreads, n, koPause, maxMessageBytes, targets, registry, tls);
  }

  public RpcSettings withKoPause(Duration pause) {
    return new RpcSettings(host, port, timeout, mode, syncThreads, connections, pause, maxMessageBytes,
        targets, registry, tls);
  }

  public RpcSettings withMaxMessageBytes(int bytes) {
    return new RpcSettings(host, port, timeout, mode, syncThreads, connections, koPause, bytes, targets, registry, tls);
  }

  /** Speaks TLS as {@code newTls} says; null: plaintext. */
  public RpcSettings withTls(Tls newTls) {
    return new RpcSettings(host, port, timeout, mode, syncThreads, connections, koPause, maxMessageBytes, targets,
        registry, newTls);
  }

  /** How the client speaks TLS, if it does. */
  public Optional<Tls> viaTls() {
    return Optional.ofNullable(tls);
  }

  public long timeoutMillis() {
    return timeout.toMillis();
  }
}
