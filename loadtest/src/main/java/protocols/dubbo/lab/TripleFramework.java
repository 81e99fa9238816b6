package protocols.dubbo.lab;

import static protocols.dubbo.DubboDsl.triple;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileService;
import contract.grpc.Order;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import protocols.dubbo.DubboClient;
import protocols.dubbo.DubboDsl;
import protocols.lab.RpcFramework;

/** Dubbo over Triple as the lab knows it: the Triple echo server, the generated stub's echo, the proto's sample order. */
public final class TripleFramework {
  public static final RpcFramework<DubboClient, Order> FRAMEWORK = RpcFramework.<DubboClient, Order>of("triple",
      DubboBootstrap.class, "servers.dubbo.TripleEchoServer", "--max-message",
      p -> DubboDsl.triple.consumerThreads(p.intParam("triple.consumerThreads", 0, 0, 1_024)),
      triple("echo").service(MobileService.class).call(MobileService::hello, MobileService::helloAsync).calls(),
      (id, name) -> SampleOrder.make(GrpcOrder::of, id, name))
      .withParam("triple.serverThreads", 200, RpcFramework.Side.SERVER, "--threads", new RpcFramework.Range(1, 10_000),
          java.util.List.of(8, 200), "the Triple provider's thread pool size")
      .withParam("triple.serverQueues", 0, RpcFramework.Side.SERVER, "--queues",
          new RpcFramework.Range(0, Integer.MAX_VALUE), java.util.List.of(0, 1_000_000), "the provider pool's queue"
              + " (Dubbo's queues): 0 none, each call handed to an idle thread or refused; n a queue of n calls")
      .withParam("triple.flowWindow", 8 * 1024 * 1024, RpcFramework.Side.SERVER, "--flow-window",
          new RpcFramework.Range(65_535, Integer.MAX_VALUE), java.util.List.of(65_535, 1024 * 1024, 8 * 1024 * 1024),
          "the provider's HTTP/2 initial window per call, bytes (Triple's initialWindowSize)")
      .withParam("triple.consumerThreads", 0, RpcFramework.Side.CLIENT, null, new RpcFramework.Range(0, 1_024),
          java.util.List.of(0, 1, 2), "the consumer's pool, where Triple hands each frame of a reply from Dubbo's Netty"
              + " thread (Dubbo's threadpool, threads and queues on the consumer's URL): 0 its cached pool; n a fixed"
              + " pool of n threads");

  private TripleFramework() {}
}
