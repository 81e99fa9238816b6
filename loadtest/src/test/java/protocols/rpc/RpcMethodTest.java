package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class RpcMethodTest {

  /** A method whose async and callback APIs answer differently, so a call says which one it took. */
  private static final class TwoApis implements RpcMethod<RpcClient, String, String> {
    @Override
    public CompletionStage<String> callAsync(RpcClient client, String request) {
      return CompletableFuture.completedFuture("future " + request);
    }

    @Override
    public void callWithCallback(RpcClient client, String request, BiConsumer<? super String, ? super Throwable> done) {
      if (request.equals("boom")) {
        throw new IllegalStateException("could not send");
      }
      new Thread(() -> done.accept(request.equals("fail") ? null : "callback " + request,
          request.equals("fail") ? new IllegalStateException("refused") : null)).start();
    }
  }

  /** A method with a future only: callback mode takes its async path. */
  private static final class FutureOnly implements RpcMethod<RpcClient, String, String> {
    @Override
    public CompletionStage<String> callAsync(RpcClient client, String request) {
      return CompletableFuture.completedFuture("future " + request);
    }
  }

  @Test
  void eachModeStartsItsOwnApiAndAFailureIsTheFuturesNeverAThrow() throws Exception {
    TwoApis method = new TwoApis();
    assertEquals("future a", method.start(null, "a", InvocationMode.ASYNC).get());
    assertEquals("callback a", method.start(null, "a", InvocationMode.CALLBACK).get());
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> method.start(null, "fail", InvocationMode.CALLBACK).get());
    assertEquals("refused", failed.getCause().getMessage());
    CompletableFuture<String> notSent = method.start(null, "boom", InvocationMode.CALLBACK);
    assertTrue(notSent.isCompletedExceptionally(), "a callback API that throws is a failed call");
    assertEquals("future a", new FutureOnly().start(null, "a", InvocationMode.CALLBACK).get(),
        "without a callback API of its own, callback mode is the async path");
  }
}
