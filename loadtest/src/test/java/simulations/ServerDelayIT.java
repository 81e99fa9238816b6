package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import protocols.frameworks.Frameworks;
import protocols.lab.RpcFramework;
import protocols.rpc.RpcMethod;
import protocols.lab.EmbeddedServer;
import protocols.rpc.InvocationMode;
import protocols.lab.LoadParams;
import protocols.rpc.RpcClient;

/**
 * -DserverDelayUs reaches every embedded server, whose replies then come at least that late, through
 * the async and the blocking API alike; and 20 calls at once take about one delay, not twenty: no
 * server thread sleeps through the delay (Dubbo's provider pool, Thrift's workers and Ice's dispatch
 * threads would otherwise serialise them).
 */
class ServerDelayIT {
  private static final int DELAY_MICROS = 200_000;

  @ParameterizedTest
  @MethodSource("protocols.frameworks.Frameworks#names")
  @SuppressWarnings("unchecked")
  void everyServerAnswersLateWithoutHoldingAThread(String name) throws Exception {
    RpcFramework<RpcClient, Object> framework = (RpcFramework<RpcClient, Object>) Frameworks.byName(name);
    LoadParams params = new LoadParams(Map.of("serverDelayUs", Integer.toString(DELAY_MICROS)));
    List<String> args = new ArrayList<>(framework.serverArgs(params));
    if (!name.equals("dubbo") && !name.equals("triple")) {
      // Fewer threads than concurrent calls. Dubbo's fixed pool (Triple's too) has no queue: it refuses
      // a burst wider than its threads however fast they are freed, so it keeps its 200 and shows only the delay.
      args.addAll(List.of("--threads", "2"));
    }
    try (EmbeddedServer server = EmbeddedServer.start(name, framework.serverMainClass(), args)) {
      for (InvocationMode mode : InvocationMode.values()) {
        try (RpcClient client = framework.newClient(params, server.address(), mode,
            Duration.ofSeconds(20))) {
          Object order = framework.order(7, params);
          long t0 = System.nanoTime();
          Object reply = mode == InvocationMode.ASYNC
              ? framework.echo(client).callAsync(client, order).toCompletableFuture().get(20, TimeUnit.SECONDS)
              : framework.echo(client).callSync(client, order, 20_000);
          long micros = (System.nanoTime() - t0) / 1_000;
          assertEquals(order, reply, name + " " + mode);
          assertTrue(micros >= DELAY_MICROS, name + " " + mode + ": answered after " + micros + " µs");
        }
      }
      try (RpcClient client = framework.newClient(params, server.address(), InvocationMode.ASYNC,
          Duration.ofSeconds(20))) {
        RpcMethod<RpcClient, Object, Object> echo = framework.echo(client);
        List<CompletableFuture<Object>> calls = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 20; i++) {
          calls.add(echo.callAsync(client, framework.order(i, params)).toCompletableFuture());
        }
        for (CompletableFuture<Object> c : calls) {
          c.get(20, TimeUnit.SECONDS);
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        // 20 delays on 2 threads would take 2 s; concurrent ones, one delay plus the machine's noise.
        assertTrue(millis < 5 * DELAY_MICROS / 1_000, name + ": 20 concurrent calls took " + millis + " ms");
      }
    }
  }
}
