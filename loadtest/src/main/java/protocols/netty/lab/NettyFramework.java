package protocols.netty.lab;

import contract.pojo.Order;
import io.netty.channel.Channel;
import protocols.lab.RpcFramework;
import protocols.netty.NettyClient;
import protocols.netty.NettyDsl;

/** The ceiling (Netty, length-prefixed frames, Kryo) as the lab knows it: its echo server, its echo. */
public final class NettyFramework {
  public static final RpcFramework<NettyClient, Order> FRAMEWORK = RpcFramework.of("netty", Channel.class,
      "servers.netty.NettyEchoServer", "--max-frame", p -> NettyDsl.netty, NettyDsl.HELLO, NettyDsl::order)
      .withParam("netty.serverThreads", 0, RpcFramework.Side.SERVER, "--threads", new RpcFramework.Range(0, 1_024),
          java.util.List.of(0, 1, 2), "the server's I/O threads, which run the echo (0: Netty's default, twice the"
              + " cores)")
      .withParam("netty.flushConsolidation", "off", RpcFramework.Side.SERVER, "--flush-consolidation",
          java.util.List.of("off", "on"), "Netty's FlushConsolidationHandler on the server: one flush per read's"
              + " replies")
      .withParam("netty.transport", "nio", RpcFramework.Side.SERVER, "--transport", java.util.List.of("nio", "epoll"),
          "the server's Netty transport: the JDK's NIO or Linux's epoll; the client's is Gatling's"
              + " (gatling.netty.useNativeTransport)")
      .withConnections(java.util.List.of(0, 1, 4), "one per Gatling event loop");

  private NettyFramework() {}
}
