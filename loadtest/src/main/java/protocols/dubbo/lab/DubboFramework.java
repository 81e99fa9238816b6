package protocols.dubbo.lab;

import static protocols.dubbo.DubboDsl.dubbo;

import contract.dubbo.DubboSerialization;
import contract.dubbo.MobileService;
import contract.pojo.Order;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import protocols.dubbo.DubboClient;
import protocols.dubbo.DubboDsl;
import protocols.dubbo.DubboProtocol;
import java.util.List;
import protocols.lab.RpcFramework;
import protocols.lab.RpcFramework.Range;
import protocols.lab.RpcFramework.Side;

/** Dubbo as the lab knows it: its echo server, its echo and sample order, {@code -Dserialization}. */
public final class DubboFramework {
  /** {@code -Dserialization=hessian2|kryo|fastjson2} sets both sides. */
  public static final RpcFramework<DubboClient, Order> FRAMEWORK = RpcFramework.<DubboClient, Order>of("dubbo",
          DubboBootstrap.class, "servers.dubbo.DubboEchoServer", "--payload",
          p -> DubboDsl.dubbo.serialization(p.string("serialization", DubboSerialization.DEFAULT))
              .consumerThreads(p.intParam("dubbo.consumerThreads", 0, 0, 1_024))
              .client(DubboProtocol.IoThreads.of(p.string("dubbo.client", DubboProtocol.IoThreads.OWN.label()))),
          dubbo("echo").service(MobileService.class).call(MobileService::hello, MobileService::helloAsync).calls(),
          DubboDsl::order)
      .withParam("serialization", DubboSerialization.DEFAULT, RpcFramework.Side.BOTH, "--serialization",
          DubboSerialization.SUPPORTED, "how Dubbo's protocol encodes the Order (the consumer's URL and the provider's)")
      .withParam("dubbo.serverThreads", 200, Side.SERVER, "--threads", new Range(1, 10_000), List.of(8, 200),
          "the provider's thread pool size")
      .withParam("dubbo.serverQueues", 0, Side.SERVER, "--queues", new Range(0, Integer.MAX_VALUE),
          List.of(0, 1_000_000), "the provider pool's queue (Dubbo's queues): 0 none, each call handed to an idle"
              + " thread or refused; n a queue of n calls")
      .withParam("dubbo.threadpool", "fixed", Side.SERVER, "--threadpool", List.of("fixed", "cached", "limited",
          "eager"), "the provider's thread pool kind")
      .withParam("dubbo.dispatcher", "all", Side.SERVER, "--dispatcher", List.of("all", "direct", "message",
          "execution", "connection"), "which of the provider's messages go to its pool (direct: none, the call runs on"
          + " the I/O thread)")
      .withParam("dubbo.consumerThreads", 0, Side.CLIENT, null, new Range(0, 1_024), List.of(0, 1, 2),
          "the consumer's pool, where replies go from Dubbo's Netty thread (Dubbo's threadpool, threads and queues on"
              + " the consumer's URL): 0 its cached pool, a thread per reply in hand; n a fixed pool of n threads")
      .withParam("dubbo.client", DubboProtocol.IoThreads.OWN.label(), Side.CLIENT, null,
          List.of(DubboProtocol.IoThreads.OWN.label(), DubboProtocol.IoThreads.LOOPS.label()),
          "whose threads do the consumer's I/O: Dubbo's own NettyClientWorker threads, or a connection per Gatling"
              + " loop with each user's calls on its own")
      .withConnections(List.of(0, 2, 4), "one per provider, shared by every call (Dubbo's default)");

  private DubboFramework() {}
}
