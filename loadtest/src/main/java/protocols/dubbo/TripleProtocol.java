package protocols.dubbo;

import protocols.rpc.ClientPath;
import java.util.Map;
import org.apache.dubbo.config.nested.TripleConfig;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/**
 * {@code triple.target("127.0.0.1", 50052)...}: Dubbo's consumer over Triple, Dubbo 3's gRPC-compatible
 * HTTP/2 protocol, calling the interfaces Dubbo's protoc plugin generates. A protocol of its own (not
 * an option of {@link DubboProtocol}) so one simulation can run both side by side. Immutable.
 */
public final class TripleProtocol extends DubboFamilyProtocol<TripleProtocol> {
  public static final RpcProtocolKey<TripleProtocol> KEY = new RpcProtocolKey<>(TripleProtocol.class);

  /** Triple's own default largest message body, also the Triple echo server's --max-message default. */
  static final int DEFAULT_MAX_BODY = TripleConfig.DEFAULT_MAX_RESPONSE_BODY_SIZE;

  TripleProtocol(RpcSettings settings) {
    this(settings, 0);
  }

  private TripleProtocol(RpcSettings settings, int consumerThreads) {
    super(settings, new Spec<>(KEY, "triple", DEFAULT_MAX_BODY, s -> new TripleProtocol(s, consumerThreads),
        (p, loops) -> DubboClient.triple(p.settings(), p.maxMessageBytes(), consumerThreads)), consumerThreads);
  }

  @Override
  TripleProtocol withConsumerThreads(int threads) {
    return new TripleProtocol(settings(), threads);
  }

  @Override
  public ClientPath clientPath() {
    return new ClientPath("one per provider", "one per provider, shared by every call (Dubbo's default), on Dubbo's own Netty threads", 3,
        "the write, from the user's loop to Dubbo's Netty thread; the reply, to the consumer's pool, where Triple"
        + " runs its callbacks; from there to the user's loop");
  }

  @Override
  public String balancing() {
    return DubboProtocol.Cluster.DEFAULT.describe(settings());
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("protocol", "tri (protobuf, the stubs of Dubbo's protoc plugin)",
        "consumer pool", consumerPool());
  }
}
