package protocols.netty.lab;

import contract.pojo.Order;
import io.netty.channel.Channel;
import protocols.lab.RpcFramework;
import protocols.netty.NettyClient;
import protocols.netty.NettyDsl;

/** The ceiling (Netty, length-prefixed frames, Kryo) as the lab knows it: its echo server, its echo. */
public final class NettyFramework {
  public static final RpcFramework<NettyClient, Order> FRAMEWORK = RpcFramework.of("netty", Channel.class,
      "servers.netty.NettyEchoServer", "--max-frame", p -> NettyDsl.netty, NettyDsl.HELLO, NettyDsl::order);

  private NettyFramework() {}
}
