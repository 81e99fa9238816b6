package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class CallTimerTest {

  private record Method(boolean enforcesTimeout) implements RpcMethod<RpcClient, String, String> {
    @Override
    public CompletionStage<String> callAsync(RpcClient client, String request) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aCallThatNeverAnswersTimesOutOnceAndTheFrameworksCallIsCancelled() throws Exception {
    try (CallTimer timer = new CallTimer("test")) {
      CompletableFuture<String> own = new CompletableFuture<>();
      CompletableFuture<String> call = timer.within(new Method(false), own, 50);
      ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof TimeoutException, e.toString());
      // then, on the wheel's thread, the framework's own call is cancelled so it can forget it
      assertThrows(java.util.concurrent.CancellationException.class, () -> own.get(5, TimeUnit.SECONDS));
      own.complete("late"); // a late reply changes nothing
      assertTrue(call.isCompletedExceptionally());
    }
  }

  @Test
  void aReplyBeforeTheTimeoutIsTheOutcomeAndCancelsNothing() throws Exception {
    try (CallTimer timer = new CallTimer("test")) {
      CompletableFuture<String> own = new CompletableFuture<>();
      CompletableFuture<String> call = timer.within(new Method(false), own, 200);
      own.complete("reply");
      assertEquals("reply", call.get(1, TimeUnit.SECONDS));
      Thread.sleep(300);
      assertFalse(own.isCancelled());
      assertEquals("reply", call.get());
    }
  }

  @Test
  void aMethodWhoseFrameworkEnforcesTheTimeoutGetsNoSecondTimer() {
    try (CallTimer timer = new CallTimer("test")) {
      CompletableFuture<String> own = new CompletableFuture<>();
      assertSame(own, timer.within(new Method(true), own, 50));
    }
  }
}
