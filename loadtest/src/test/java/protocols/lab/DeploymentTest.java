package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.netty.NettyClient;
import protocols.netty.lab.NettyFramework;
import protocols.rpc.HostPort;
import protocols.rpc.InvocationMode;
import protocols.rpc.Registry;

/** Several providers of a real echo server: the client spreads its calls, each provider counts its own. */
class DeploymentTest {

  @Test
  void providersAndRegistryAreReadIntoAPlan() {
    assertEquals(Deployment.Plan.ONE_DIRECT, Deployment.Plan.of(new LoadParams(Map.of())));
    assertEquals(new Deployment.Plan(3, Registry.Kind.ZOOKEEPER, null),
        Deployment.Plan.of(new LoadParams(Map.of("providers", "3", "registry", "zookeeper"))));
    assertEquals(new Deployment.Plan(1, Registry.Kind.ICEGRID, HostPort.parse("127.0.0.1:4061")),
        Deployment.Plan.of(new LoadParams(Map.of("registry", "icegrid://127.0.0.1:4061"))));
    assertTrue(new LoadParams(Map.of("providers", "2")).deployed());
    assertThrows(IllegalArgumentException.class, () -> Deployment.Plan.of(new LoadParams(Map.of("providers", "17"))));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Deployment.Plan.of(new LoadParams(Map.of("registry", "consul")))).getMessage()
        .startsWith("-Dregistry must be none, zookeeper, icegrid"));
  }

  @Test
  void eachProviderCountsTheCallsItServedAndTheCountsAddUpOnceStopped() throws Exception {
    LoadParams params = new LoadParams(Map.of());
    Deployment deployment = Deployment.start(new Deployment.Plan(2, null, null), "netty",
        NettyFramework.FRAMEWORK.serverMainClass(), List.of());
    int calls = 400;
    try (deployment) {
      Endpoints endpoints = new Endpoints(deployment.addresses(), null);
      try (NettyClient client = NettyFramework.FRAMEWORK.newClient(params, endpoints, InvocationMode.ASYNC,
          Duration.ofSeconds(5), null)) {
        var echo = NettyFramework.FRAMEWORK.echo(client);
        for (int i = 0; i < calls; i++) {
          echo.callAsync(client, NettyFramework.FRAMEWORK.order(i, params)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
      }
    }
    List<Map<String, Object>> served = deployment.served();
    long one = (Long) served.get(0).get("served");
    long two = (Long) served.get(1).get("served");
    assertEquals(calls, one + two, "served " + served);
    assertTrue(one > 0 && two > 0, "both providers got calls: " + served);
  }
}
