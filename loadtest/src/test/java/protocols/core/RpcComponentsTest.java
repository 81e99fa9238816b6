package protocols.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RpcComponentsTest {

  @Test
  void syncPoolNeverRunsMoreBlockingCallsThanItsThreads() throws Exception {
    int threads = 4;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    RpcClient<String, String> blocking = new RpcClient<>() {
      @Override
      public CompletionStage<String> callAsync(String request) {
        throw new AssertionError("sync mode must not use the async API");
      }

      @Override
      public String callSync(String request) throws Exception {
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        release.await(5, TimeUnit.SECONDS);
        running.decrementAndGet();
        return request;
      }

      @Override
      public void close() {}
    };
    RpcSettings settings = RpcSettings.defaults(1).withMode(InvocationMode.SYNC).withSyncThreads(threads);
    RpcComponents<String, String> components = new RpcComponents<>(
        new RpcCallActionTest.TestProtocol(settings, blocking), blocking, RunReport.detached(), null);
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      calls.add(components.invoke("call " + i)); // returns at once: nothing blocks the caller
    }
    Thread.sleep(300);
    assertEquals(threads, peak.get(), "blocking calls in flight");
    release.countDown();
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertTrue(peak.get() <= threads);
    components.close();
  }
}
