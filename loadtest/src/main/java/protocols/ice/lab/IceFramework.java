package protocols.ice.lab;

import static protocols.ice.IceDsl.ice;

import com.zeroc.Ice.Communicator;
import contract.zeroc.IceSettings;
import contract.zeroc.MobileServicePrx;
import contract.zeroc.Order;
import protocols.ice.IceClient;
import protocols.ice.IceDsl;
import protocols.ice.IceProtocol;
import protocols.lab.RpcFramework;

/** ZeroC Ice as the lab knows it: its echo server, its echo and sample order, its knobs (thread pools, ACM, connections). */
public final class IceFramework {
  public static final RpcFramework<IceClient, Order> FRAMEWORK = RpcFramework.of("ice", Communicator.class,
      "servers.ice.IceEchoServer", "--max-message",
      p -> IceDsl.ice.clientThreads(p.intParam("ice.clientThreads", 0, 0, 1_024))
          .acmTimeout(p.intParam("ice.acmTimeout", IceProtocol.DEFAULT_ACM_TIMEOUT, 0, 86_400)),
      ice("echo").proxy(IceSettings.IDENTITY, MobileServicePrx::uncheckedCast)
          .call((MobileServicePrx prx, Order o) -> prx.helloAsync(o)).blocking(MobileServicePrx::hello).calls(),
      IceDsl::order)
      .withParam("ice.serverThreads", 200, RpcFramework.Side.SERVER, "--threads", new RpcFramework.Range(1, 10_000),
          java.util.List.of(1, 4, 200), "the server's thread pool (Ice.ThreadPool.Server.Size and SizeMax), which reads"
              + " requests and dispatches them")
      .withParam("ice.clientThreads", 0, RpcFramework.Side.CLIENT, null, new RpcFramework.Range(0, 1_024),
          java.util.List.of(0, 1, 4), "the client's thread pool (Ice.ThreadPool.Client.Size), which reads the"
              + " replies and completes the calls (0: one per core)")
      .withParam("ice.acmTimeout", IceProtocol.DEFAULT_ACM_TIMEOUT, RpcFramework.Side.CLIENT, null,
          new RpcFramework.Range(0, 86_400), java.util.List.of(0, 60), "the client's active connection management"
              + " (Ice.ACM.Client.Timeout, seconds): idle connections closed, busy ones kept by heartbeats; 0 off")
      .withConnections(java.util.List.of(0, 1, 4), "one per Gatling event loop");

  private IceFramework() {}
}
