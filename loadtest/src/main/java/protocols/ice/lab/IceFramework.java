package protocols.ice.lab;

import static protocols.ice.IceDsl.ice;

import com.zeroc.Ice.Communicator;
import contract.zeroc.IceSettings;
import contract.zeroc.MobileServicePrx;
import contract.zeroc.Order;
import protocols.ice.IceClient;
import protocols.ice.IceDsl;
import protocols.lab.RpcFramework;

/** ZeroC Ice as the lab knows it: its echo server, its echo and sample order, its server's thread pool. */
public final class IceFramework {
  public static final RpcFramework<IceClient, Order> FRAMEWORK = RpcFramework.of("ice", Communicator.class,
      "servers.ice.IceEchoServer", "--max-message", p -> IceDsl.ice,
      ice("echo").proxy(IceSettings.IDENTITY, MobileServicePrx::uncheckedCast)
          .call((MobileServicePrx prx, Order o) -> prx.helloAsync(o)).blocking(MobileServicePrx::hello).calls(),
      IceDsl::order)
      .withParam("ice.serverThreads", 200, RpcFramework.Side.SERVER, "--threads", new RpcFramework.Range(1, 10_000),
          java.util.List.of(1, 4, 200), "the server's thread pool (Ice.ThreadPool.Server.Size and SizeMax), which reads"
              + " requests and dispatches them");

  private IceFramework() {}
}
