package protocols.netty;

import protocols.rpc.ClientPath;
import contract.netty.EchoFrames;
import protocols.rpc.NettyTls;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/** {@code netty.target("127.0.0.1", 7000)...}: the ceiling's protocol, only the shared settings. */
public final class NettyProtocol extends RpcProtocol<NettyProtocol, NettyClient> {
  public static final RpcProtocolKey<NettyProtocol> KEY = new RpcProtocolKey<>(NettyProtocol.class);

  NettyProtocol(RpcSettings settings) {
    super(settings, new Spec<>(KEY, "netty", EchoFrames.DEFAULT_MAX_FRAME, NettyProtocol::new,
        (p, loops) -> new NettyClient(p.settings(), p.maxMessageBytes(), loops)));
  }

  @Override
  public ClientPath clientPath() {
    return new ClientPath("one per event loop", "one per Gatling event loop, on that loop, calls multiplexed by call id", 0,
        "the call and its reply on the user's own loop, its connection's");
  }

  @Override
  public String tlsImplementation() {
    return settings().viaTls().map(t -> NettyTls.describe(NettyTls.provider(t.provider()))).orElse("none");
  }

  @Override
  public String callbackApi() {
    return "the ceiling's client completes a future per call: the same path as async mode";
  }
}
