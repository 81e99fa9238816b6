package protocols.core;

import io.gatling.core.protocol.Protocol;
import java.util.Map;

/**
 * A framework's Gatling protocol: an immutable value holding the shared settings and whatever the
 * framework adds. Each framework has its own subclass, because Gatling keys protocols by class.
 */
public abstract class RpcProtocol<Req, Resp> implements Protocol {
  private final RpcSettings settings;

  protected RpcProtocol(RpcSettings settings) {
    this.settings = settings;
  }

  public final RpcSettings settings() {
    return settings;
  }

  /** The framework's name, for logs and errors. */
  public abstract String framework();

  /** The framework's own size limit for one message (request or reply), in bytes. */
  protected abstract int defaultMaxMessageBytes();

  /** The largest request or reply this protocol's client sends or accepts, in bytes. */
  public final int maxMessageBytes() {
    return settings.maxMessageBytes() > 0 ? settings.maxMessageBytes() : defaultMaxMessageBytes();
  }

  /** The framework's own settings, for the run summary (e.g. Dubbo's serialization). */
  public Map<String, Object> describe() {
    return Map.of();
  }

  /** Creates the framework's client; called once per run, closed when the run ends. */
  public abstract RpcClient<Req, Resp> newClient();
}
