package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.dubbo.lab.DubboFramework;
import protocols.ice.lab.IceFramework;
import protocols.rpc.Registry;
import servers.dubbo.DubboEchoServer;

/**
 * A registry with nothing behind it, through the frameworks' own clients: a provider that registered in
 * ZooKeeper and died before the first call, and an IceGrid registry no provider registered with. Each
 * is one line, in bounded time; and the registry the lab started is gone once it is closed.
 */
class RegistryServerIT {
  private static final LoadParams PARAMS = new LoadParams(Map.of());

  @Test
  void aDubboProviderThatRegisteredAndDiedBeforeTheFirstCallIsOneLine() {
    try (RegistryServer zookeeper = RegistryServer.start(Registry.Kind.ZOOKEEPER)) {
      EmbeddedServer provider = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(),
          List.of("--registry", zookeeper.registry().toString()));
      provider.kill(); // SIGKILL: its entry stays in ZooKeeper until its session expires
      long start = System.nanoTime();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> EchoRun.probe(DubboFramework.FRAMEWORK,
          PARAMS, new Endpoints(List.of(provider.address()), zookeeper.registry()), "test"));
      provider.close();
      assertOneLineWithin(e, "no dubbo echo call through zookeeper://127.0.0.1:", start);
      assertTrue(e.getMessage().contains("no provider of contract.dubbo.MobileService is registered and reachable"
          + " in zookeeper://"), e.getMessage());
      assertTrue(zookeeper.process().isAlive());
      zookeeper.close();
      assertFalse(zookeeper.process().isAlive(), "ZooKeeper stopped with its run");
    }
  }

  @Test
  void anIceGridRegistryNoProviderRegisteredWithIsOneLine() {
    try (RegistryServer icegrid = RegistryServer.start(Registry.Kind.ICEGRID)) {
      long start = System.nanoTime();
      Endpoints endpoints = new Endpoints(List.of(icegrid.registry().address()), icegrid.registry());
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> EchoRun.probe(IceFramework.FRAMEWORK, PARAMS, endpoints, "test"));
      assertOneLineWithin(e, "no ice echo call through icegrid://127.0.0.1:", start);
      assertTrue(e.getMessage().contains("knows no object adapter 'EchoGroup': no provider registered it"),
          e.getMessage());
    }
  }

  private static void assertOneLineWithin(RuntimeException e, String expectedStart, long startNanos) {
    long millis = (System.nanoTime() - startNanos) / 1_000_000;
    assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(millis < 20_000, "answered in " + millis + " ms");
  }
}
