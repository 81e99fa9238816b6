package protocols.dubbo.lab;

import static protocols.dubbo.DubboDsl.dubbo;

import contract.dubbo.DubboSerialization;
import contract.dubbo.MobileService;
import contract.pojo.Order;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import protocols.dubbo.DubboClient;
import protocols.dubbo.DubboDsl;
import protocols.lab.RpcFramework;

/** Dubbo as the lab knows it: its echo server, its echo and sample order, {@code -Dserialization}. */
public final class DubboFramework {
  /** {@code -Dserialization=hessian2|kryo|fastjson2} sets both sides. */
  public static final RpcFramework<DubboClient, Order> FRAMEWORK = RpcFramework.<DubboClient, Order>of("dubbo",
          DubboBootstrap.class, "servers.dubbo.DubboEchoServer", "--payload",
          p -> DubboDsl.dubbo.serialization(p.string("serialization", DubboSerialization.DEFAULT)),
          dubbo("echo").service(MobileService.class).call(MobileService::hello, MobileService::helloAsync).calls(),
          DubboDsl::order)
      .withParam("serialization", DubboSerialization.DEFAULT, "--serialization", DubboSerialization.SUPPORTED);

  private DubboFramework() {}
}
