package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    RpcComponents<ActionFixtures.FunctionClient> components = syncComponents(request -> {
      peak.accumulateAndGet(running.incrementAndGet(), Math::max);
      release.await(5, TimeUnit.SECONDS);
      running.decrementAndGet();
      return request;
    }, RpcSettings.defaults(1).withSyncThreads(threads));
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      calls.add(components.call(i, ActionFixtures.FunctionClient.METHOD, "call " + i)); // returns at once: nothing blocks the caller
    }
    Thread.sleep(300);
    assertEquals(threads, peak.get(), "blocking calls in flight");
    release.countDown();
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertTrue(peak.get() <= threads);
    components.close();
  }

  @Test
  void aTimedOutBlockingCallThatKeepsItsThreadDoesNotGrowThePoolQueue() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    // A blocking client that ignores interrupts, as a socket read without a timeout does.
    RpcComponents<ActionFixtures.FunctionClient> components = syncComponents(request -> {
      while (true) {
        try {
          if (release.await(5, TimeUnit.SECONDS)) {
            return request;
          }
        } catch (InterruptedException ignored) {
          // keeps the thread
        }
      }
    }, RpcSettings.defaults(1).withSyncThreads(1).withTimeout(java.time.Duration.ofMillis(50)));
    List<String> failures = new ArrayList<>();
    // One virtual user: each call after the previous one has completed (timed out), as a user loops.
    for (int i = 0; i < 8; i++) {
      try {
        components.call(1, ActionFixtures.FunctionClient.METHOD, "call " + i).get(5, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        failures.add(String.valueOf(e.getCause().getMessage()));
      }
      assertTrue(components.syncPoolTasks() <= 1, "pool tasks after call " + i + ": " + components.syncPoolTasks());
    }
    assertEquals(8, failures.size(), "every call timed out");
    assertTrue(failures.get(7).contains("previous call still holds a thread of the 1-thread sync pool"), failures.get(7));
    release.countDown();
    assertEquals("after", components.call(1, ActionFixtures.FunctionClient.METHOD, "after").get(5, TimeUnit.SECONDS), "the user goes on once the thread is free");
    components.close();
  }

  @Test
  void aSyncCallThatCameBackLeavesNoTimeoutOnTheWheel() throws Exception {
    RpcComponents<ActionFixtures.FunctionClient> components = syncComponents(request -> request,
        RpcSettings.defaults(1).withSyncThreads(4));
    for (int i = 0; i < 1_000; i++) {
      assertEquals("call " + i, components.call(i % 50, ActionFixtures.FunctionClient.METHOD, "call " + i)
          .get(5, TimeUnit.SECONDS));
    }
    Thread.sleep(100); // the last cancellations reach the wheel
    assertTrue(components.pendingTimeouts() < 10, components.pendingTimeouts() + " timeouts of answered calls left");
    components.close();
  }

  /** A client's blocking call, for a client that has only that. */
  private interface BlockingCall {
    String call(String request) throws Exception;
  }

  /** Sync-mode components around a client whose async API must never be used. */
  private static RpcComponents<ActionFixtures.FunctionClient> syncComponents(BlockingCall call,
                                                                                RpcSettings settings) {
    ActionFixtures.FunctionClient client = new ActionFixtures.FunctionClient(request -> {
      throw new AssertionError("sync mode must not use the async API");
    }) {
      @Override
      String callSync(String request) throws Exception {
        return call.call(request);
      }
    };
    RpcSettings sync = settings.withMode(InvocationMode.SYNC);
    return new RpcComponents<>(new ActionFixtures.TestProtocol(sync, client), client, null);
  }
}
