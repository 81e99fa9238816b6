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

  private static String scrape(int port) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(5)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    return r.body();
  }

  /** The value of the sample {@code series} in Prometheus' text format. */
  private static long sample(String text, String series) {
    return text.lines().filter(l -> l.startsWith(series + " ")).findFirst()
        .map(l -> Math.round(Double.parseDouble(l.substring(series.length() + 1).trim())))
        .orElseThrow(() -> new AssertionError("no " + series + " in " + text));
  }

  @Test
  void eachProviderCountsTheCallsItServedAndTheCountsAddUpOnceStopped() throws Exception {
    LoadParams params = new LoadParams(Map.of());
    int[] metricsPorts = {LoopbackPorts.next(), LoopbackPorts.next()};
    int[] next = {0};
    Deployment deployment = Deployment.start(new Deployment.Plan(2, null, null), "netty",
        NettyFramework.FRAMEWORK.serverMainClass(), List.of(), () -> metricsPorts[next[0]++], List.of());
    int calls = 400;
    long scrapedCalls = 0;
    try (deployment) {
      Endpoints endpoints = new Endpoints(deployment.addresses(), null);
      try (NettyClient client = NettyFramework.FRAMEWORK.newClient(params, endpoints, InvocationMode.ASYNC,
          Duration.ofSeconds(5), null)) {
        var echo = NettyFramework.FRAMEWORK.echo(client);
        for (int i = 0; i < calls; i++) {
          echo.callAsync(client, NettyFramework.FRAMEWORK.order(i, params)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
      }
      // Each provider's own Prometheus endpoint (--metrics-port): its calls, and a service time for each echo.
      for (int port : metricsPorts) {
        String text = scrape(port);
        long served = sample(text, "echo_server_calls_total{framework=\"netty\"}");
        assertEquals(served, sample(text, "echo_server_service_seconds_count{framework=\"netty\"}"), text);
        scrapedCalls += served;
      }
    }
    assertEquals(calls, scrapedCalls, "the providers' endpoints count every call");
    assertEquals("http://127.0.0.1:" + metricsPorts[1] + "/metrics", deployment.served().get(1).get("metrics"));
    List<Map<String, Object>> served = deployment.served();
    long one = (Long) served.get(0).get("served");
    long two = (Long) served.get(1).get("served");
    assertEquals(calls, one + two, "served " + served);
    assertTrue(one > 0 && two > 0, "both providers got calls: " + served);
  }
}
