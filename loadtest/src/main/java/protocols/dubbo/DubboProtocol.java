package protocols.dubbo;

import contract.dubbo.DubboSerialization;
import java.util.Map;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/** {@code dubbo.target("127.0.0.1", 20880).serialization("kryo")...}: immutable. */
public final class DubboProtocol extends RpcProtocol<DubboProtocol, DubboClient> {
  public static final RpcProtocolKey<DubboProtocol> KEY = new RpcProtocolKey<>(DubboProtocol.class);

  /** Dubbo's own payload limit (URL parameter payload), also the echo server's --payload default. */
  static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;

  private final String serialization;

  DubboProtocol(RpcSettings settings, String serialization) {
    super(settings, new Spec<>(KEY, "dubbo", DEFAULT_PAYLOAD, s -> new DubboProtocol(s, serialization),
        (p, loops) -> new DubboClient(p.settings(), serialization, p.maxMessageBytes())));
    this.serialization = serialization;
  }

  /** hessian2 (Dubbo's default), kryo (the write-up's) or fastjson2; the server must use the same. */
  public DubboProtocol serialization(String name) {
    if (!DubboSerialization.SUPPORTED.contains(name)) {
      throw new IllegalArgumentException("Dubbo serialization must be one of "
          + String.join("|", DubboSerialization.SUPPORTED) + ", got '" + name + "'");
    }
    return new DubboProtocol(settings(), name);
  }

  public String serialization() {
    return serialization;
  }

  @Override
  public String callbackApi() {
    return "Dubbo's event notification: the blocking signature on a reference whose method is async with"
        + " onreturn/onthrow (async mode: the CompletableFuture signature; a request with no blocking"
        + " signature: that future's whenComplete)";
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("serialization", serialization);
  }
}
