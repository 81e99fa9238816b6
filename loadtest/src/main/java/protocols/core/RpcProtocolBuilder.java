package protocols.core;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;

/**
 * The settings every framework's protocol builder shares. Immutable: each method returns a new
 * builder of the framework's own type {@code B}, which adds its own settings.
 */
public abstract class RpcProtocolBuilder<B extends RpcProtocolBuilder<B>> implements ProtocolBuilder {
  protected final RpcSettings settings;

  protected RpcProtocolBuilder(RpcSettings settings) {
    this.settings = settings;
  }

  /** A copy of this builder with other shared settings. */
  protected abstract B with(RpcSettings newSettings);

  /** The server to call. */
  public B target(String host, int port) {
    return with(settings.withTarget(host, port));
  }

  /** The server to call, as {@code host:port}. */
  public B target(String hostAndPort) {
    HostPort hp = HostPort.parse(hostAndPort);
    return target(hp.host(), hp.port());
  }

  /** Per-call timeout; a later reply is a KO "timeout after N ms". */
  public B timeout(Duration timeout) {
    return with(settings.withTimeout(timeout));
  }

  /** Invocation model: the framework's async API or its blocking call on the sync pool. */
  public B mode(InvocationMode mode) {
    return with(settings.withMode(mode));
  }

  public B async() {
    return mode(InvocationMode.ASYNC);
  }

  public B sync() {
    return mode(InvocationMode.SYNC);
  }

  /** Threads of the sync pool (default 200); only used in sync mode. */
  public B syncThreads(int threads) {
    return with(settings.withSyncThreads(threads));
  }

  /** Connections (or channels) the users share; 0 keeps the framework's default. */
  public B connections(int connections) {
    return with(settings.withConnections(connections));
  }

  /** How long a user waits after a failed call before its next one (default 100 ms; timeouts wait already). */
  public B koPause(Duration pause) {
    return with(settings.withKoPause(pause));
  }

  /**
   * The largest request or reply the client sends or accepts, in bytes; 0 keeps the framework's
   * default. A call over it is a KO that names the limit. The server has a limit of its own.
   */
  public B maxMessageBytes(int bytes) {
    return with(settings.withMaxMessageBytes(bytes));
  }

  public RpcSettings settings() {
    return settings;
  }
}
