package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.dubbo.DubboDsl;
import protocols.grpc.GrpcDsl;
import protocols.ice.IceDsl;

/** Providers and registries as the DSL takes them: values, checked where they are given. */
class RegistryTest {

  @Test
  void aRegistryIsWrittenAndReadAsSchemeHostPort() {
    Registry zk = Registry.parse("zookeeper://127.0.0.1:2181");
    assertEquals(Registry.zookeeper("127.0.0.1", 2181), zk);
    assertEquals("zookeeper://127.0.0.1:2181", zk.toString());
    assertEquals(Registry.Kind.ICEGRID, Registry.parse("icegrid://127.0.0.1:4061").kind());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Registry.parse("etcd://127.0.0.1:2379"))
        .getMessage().contains("registry must be one of zookeeper|icegrid"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Registry.parse("127.0.0.1:2181"))
        .getMessage().contains("scheme://host:port"));
  }

  @Test
  void targetsAreEveryProviderTheFirstAlsoTheTarget() {
    RpcSettings s = RpcSettings.defaults(1).withTargets(List.of(new HostPort("127.0.0.1", 7), HostPort.parse("127.0.0.1:8")));
    assertEquals("127.0.0.1", s.host());
    assertEquals(7, s.port());
    assertEquals(2, s.targets().size());
    assertEquals(1, s.withTarget("127.0.0.1", 9).targets().size(), "one target replaces the list");
    assertTrue(s.viaRegistry().isEmpty());
    assertThrows(IllegalArgumentException.class, () -> RpcSettings.defaults(1).withTargets(List.of()));
  }

  @Test
  void eachFrameworkTakesOnlyTheRegistryItSpeaks() {
    assertEquals(Registry.zookeeper("127.0.0.1", 2181),
        DubboDsl.dubbo.registry(Registry.zookeeper("127.0.0.1", 2181)).settings().registry());
    assertTrue(IceDsl.ice.registry(Registry.icegrid("127.0.0.1", 4061)).settings().viaRegistry().isPresent());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> IceDsl.ice.registry(Registry.zookeeper("127.0.0.1", 2181))).getMessage()
        .contains("ice has no zookeeper registry; it speaks icegrid"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> GrpcDsl.grpc.registry(Registry.zookeeper("127.0.0.1", 2181))).getMessage()
        .contains("give it its providers with targets(...)"));
  }

  @Test
  void dubbosClusterSettingsAreItsOwnNames() {
    assertTrue(DubboDsl.dubbo.loadbalance("roundrobin").cluster("failfast").retries(2).targets(
        HostPort.parse("127.0.0.1:1"), HostPort.parse("127.0.0.1:2")).balancing()
        .equals("Dubbo's own: failfast cluster, roundrobin load balancer, 2 retries"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> DubboDsl.dubbo.loadbalance("fastest"))
        .getMessage().startsWith("Dubbo loadbalance must be one of random|roundrobin"));
  }
}
