package protocols.ice;

import contract.zeroc.IceSettings;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/** {@code ice.target("127.0.0.1", 10000)...}: the shared settings; maxMessageBytes is Ice.MessageSizeMax. */
public final class IceProtocol extends RpcProtocol<IceProtocol, IceClient> {
  public static final RpcProtocolKey<IceProtocol> KEY = new RpcProtocolKey<>(IceProtocol.class);

  IceProtocol(RpcSettings settings) {
    super(settings, new Spec<>(KEY, "ice", IceSettings.DEFAULT_MAX_MESSAGE, IceProtocol::new,
        (p, loops) -> new IceClient(p.settings(), p.maxMessageBytes())));
  }

  @Override
  public String callbackApi() {
    return "the *Async proxy method's CompletableFuture: Ice 3.7's Java mapping has no other async API, so"
        + " this is the async path";
  }
}
