package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.util.DefaultClock;
import io.gatling.core.CoreComponents;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.gatling.javaapi.core.internal.Expressions;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.gatling.commons.validation.Validation;
import scala.Function1;
import scala.Option;
import protocols.stats.RequestStats;
import protocols.stats.LatencyRecorder;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.rpc.ActionFixtures.FunctionClient;
import protocols.rpc.ActionFixtures.Logged;
import protocols.rpc.ActionFixtures.RecordingStats;
import protocols.rpc.ActionFixtures.Resume;
import protocols.rpc.ActionFixtures.TestProtocol;

/**
 * The action's outcomes against a controllable in-process client: every outcome is logged exactly
 * once, with the right status and message, and the user always moves on.
 */
class RpcCallActionTest {
  private final DefaultEventLoop loop = new DefaultEventLoop();
  private final RecordingStats stats = new RecordingStats();
  private final LinkedBlockingQueue<Session> resumed = new LinkedBlockingQueue<>();

  @AfterEach
  void stop() {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void matchingReplyIsOk() throws Exception {
    Logged r = runOnce(new FunctionClient(CompletableFuture::completedFuture), Duration.ofSeconds(1), "abc");
    assertEquals(OK$.MODULE$, r.status);
    assertTrue(r.message.isEmpty());
    assertFalse(r.session.isFailed());
  }

  @Test
  void differentReplyIsKoWithEchoMismatch() throws Exception {
    Logged r = runOnce(new FunctionClient(req -> CompletableFuture.completedFuture(req + "!")), Duration.ofSeconds(1), "abc");
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("echo mismatch: reply differs from request", r.message.get());
    assertTrue(r.session.isFailed());
  }

  @Test
  void noReplyIsKoTimeoutAfterTheTimeout() throws Exception {
    long t0 = System.nanoTime();
    Logged r = runOnce(new FunctionClient(req -> new CompletableFuture<>()), Duration.ofMillis(200), "abc");
    long waitedMillis = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("timeout after 200 ms", r.message.get());
    assertEquals("timeout", r.code.get());
    assertTrue(waitedMillis >= 190, "completed after " + waitedMillis + " ms");
  }

  @Test
  void theFrameworksOwnDeadlineGivesTheSameWordsAsTheCores() throws Exception {
    // Thrift's async client fails a late call with its own TimeoutException, worded its way.
    Logged r = runOnce(new FunctionClient(req -> CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException(
        "Operation class X timed out after 1001 ms."))), Duration.ofSeconds(1), "abc");
    assertEquals("timeout", r.code.get());
    assertEquals("timeout after 1000 ms", r.message.get());
  }

  @Test
  void lateReplyAfterTimeoutIsLoggedOnce() throws Exception {
    CompletableFuture<String> late = new CompletableFuture<>();
    Logged r = runOnce(new FunctionClient(req -> late), Duration.ofMillis(100), "abc");
    late.complete("abc"); // arrives after the timeout fired
    Thread.sleep(200);
    assertEquals(KO$.MODULE$, r.status);
    assertEquals(1, stats.responses.size(), "one log line per call");
    assertTrue(resumed.isEmpty(), "the user moved on once");
  }

  @Test
  void frameworkErrorIsKoWithItsCodeAndMessage() throws Exception {
    Logged r = runOnce(new FunctionClient(
        req -> CompletableFuture.failedFuture(new IllegalStateException("connection reset"))), Duration.ofSeconds(1), "abc");
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("IllegalStateException", r.code.get());
    assertEquals("IllegalStateException: connection reset", r.message.get());
  }

  @Test
  void aSizeLimitIsAKoThatSaysSoWithTheClientsWording() throws Exception {
    Logged r = runOnce(new FunctionClient(req -> CompletableFuture.failedFuture(new IllegalStateException("reset"))) {
      @Override
      public String sizeLimit(Throwable error, Object request) {
        return error.getMessage().equals("reset") ? SizeLimit.message("test", "request", ((String) request).length(), 2, "--max")
            : null;
      }
    }, Duration.ofSeconds(1), "abc");
    assertEquals(KO$.MODULE$, r.status);
    assertEquals(SizeLimit.CODE, r.code.get());
    assertEquals("request of 3 bytes is over the 2-byte test message limit: raise it with -DmaxMessageBytes"
        + " (DSL maxMessageBytes), and on a server of your own with --max", r.message.get());
  }

  @Test
  void clientThatThrowsIsKoNotAHang() throws Exception {
    Logged r = runOnce(new FunctionClient(req -> {
      throw new IllegalArgumentException("boom");
    }), Duration.ofSeconds(1), "abc");
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("IllegalArgumentException: boom", r.message.get());
  }

  @Test
  void unresolvablePayloadIsACrashKo() throws Exception {
    RpcCallAction<FunctionClient, String, String> action = action(new FunctionClient(CompletableFuture::completedFuture),
        Duration.ofSeconds(1), Expressions.toExpression("#{missing}", Object.class), InvocationMode.ASYNC);
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    Logged r = next();
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("crash", r.code.get());
    assertTrue(r.message.get().startsWith("crash: payload: "), r.message.get());
  }

  @Test
  void aFailureThatCameAtOnceIsFollowedByThePauseATimeoutIsNot() throws Exception {
    long t0 = System.nanoTime();
    Logged r = runOnce(new FunctionClient(req -> CompletableFuture.failedFuture(new java.io.IOException("refused"))),
        Duration.ofSeconds(1), "abc");
    long waitedMillis = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(KO$.MODULE$, r.status);
    assertTrue(waitedMillis >= RpcSettings.DEFAULT_KO_PAUSE.toMillis() - 10, "resumed after " + waitedMillis + " ms");
    assertTrue(lastRun.watch().failingFor(Duration.ofNanos(1)), "the run knows calls are failing");
    lastRun.watch().completed("abc", "abc", 0, 1, true);
    assertFalse(lastRun.watch().failingFor(Duration.ofNanos(1)), "an OK ends the failing stretch");
    assertFalse(lastRun.watch().failingFor(Duration.ZERO), "a zero limit never stops a run");
  }

  @Test
  void aRequestsOwnDeadlineIsTheOneTheKoNames() throws Exception {
    // A gRPC-like client whose DEADLINE_EXCEEDED comes from a request's own 800 ms deadline.
    FunctionClient client = new FunctionClient(req -> CompletableFuture.failedFuture(new IllegalStateException(
        "DEADLINE_EXCEEDED"))) {
      @Override
      public boolean isTimeout(Throwable error) {
        return "DEADLINE_EXCEEDED".equals(error.getMessage());
      }
    };
    RpcMethod<FunctionClient, String, String> withDeadline = new RpcMethod<>() {
      @Override
      public CompletionStage<String> callAsync(FunctionClient c, String request) {
        return FunctionClient.METHOD.callAsync(c, request);
      }

      @Override
      public long deadlineMillis() {
        return 800;
      }
    };
    RpcCallAction<FunctionClient, String, String> action = actionOf(withDeadline, client,
        RpcSettings.defaults(1).withTimeout(Duration.ofSeconds(3)), Expressions.toStaticValueExpression("abc"),
        List.of());
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    Logged r = next();
    assertEquals("timeout", r.code.get());
    assertEquals("timeout after 800 ms (the request's deadline)", r.message.get());
  }

  @Test
  void onlyAnErrorThatCameAtOnceIsFollowedByThePause() throws Exception {
    RpcSettings pausing = RpcSettings.defaults(1).withKoPause(Duration.ofSeconds(2));
    // A failed check on a reply: the server answered, the load goes on as configured.
    long t0 = System.nanoTime();
    RpcCallAction<FunctionClient, String, String> checked = actionOf(FunctionClient.METHOD,
        new FunctionClient(CompletableFuture::completedFuture), pausing, Expressions.toStaticValueExpression("abc"),
        List.of(RpcChecks.response(String::length).is(4)));
    loop.execute(() -> checked.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    assertEquals("response is 3, expected 4", next().message.get());
    assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "a failed check was followed by the KO pause");
    stats.responses.clear();
    // An error after 2.5 s (longer than the pause): it waited already.
    FunctionClient slowError = new FunctionClient(req -> CompletableFuture.supplyAsync(() -> {
      throw new IllegalStateException("busy");
    }, CompletableFuture.delayedExecutor(2_500, TimeUnit.MILLISECONDS)));
    RpcCallAction<FunctionClient, String, String> slow = actionOf(FunctionClient.METHOD, slowError,
        pausing.withTimeout(Duration.ofSeconds(10)), Expressions.toStaticValueExpression("abc"), List.of());
    long t1 = System.nanoTime();
    loop.execute(() -> slow.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    assertTrue(next().message.get().contains("busy"));
    assertTrue(System.nanoTime() - t1 < 4_000_000_000L, "a slow error was followed by the KO pause as well");
    assertTrue(slow.failedAtOnce(new java.io.IOException("refused"), "IOException", 1_000_000L),
        "a refused connection is");
    assertFalse(slow.failedAtOnce(new java.util.concurrent.TimeoutException(), "timeout", 1_000_000L),
        "a timeout is not: it waited");
  }

  @Test
  void aCheckThatThrowsIsOneKoAndTheUserGoesOn() throws Exception {
    // docs/own-service.md's own check, on a reply without an amount: reply.getAmount() throws here.
    RpcCheck<String, String> check = (request, reply, code, session) -> Integer.parseInt(reply) > 0
        ? RpcCheck.Result.ok(session) : RpcCheck.Result.fail("no amount");
    RpcCallAction<FunctionClient, String, String> action = action(new FunctionClient(CompletableFuture::completedFuture),
        Duration.ofSeconds(1), Expressions.toStaticValueExpression("abc"), InvocationMode.ASYNC, List.of(check));
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    Logged r = next();
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("check", r.code.get());
    assertTrue(r.message.get().startsWith("check threw: NumberFormatException"), r.message.get());
    assertEquals(1, lastRecorder.snapshot().get(0).ko());
  }

  @Test
  void aPayloadFunctionThatThrowsIsOneKo() throws Exception {
    RpcCallAction<FunctionClient, String, String> action = action(new FunctionClient(CompletableFuture::completedFuture),
        Duration.ofSeconds(1), Expressions.javaFunctionToExpression(session -> {
          throw new IllegalStateException("no order in the session");
        }), InvocationMode.ASYNC, List.of());
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    Logged r = next();
    assertEquals(KO$.MODULE$, r.status);
    assertTrue(r.message.get().contains("no order in the session"), r.message.get());
  }

  @Test
  void syncModeRunsTheBlockingCallOffTheEventLoop() throws Exception {
    CopyOnWriteArrayList<Boolean> onLoop = new CopyOnWriteArrayList<>();
    FunctionClient client = new FunctionClient(CompletableFuture::completedFuture) {
      @Override
      String callSync(String request) {
        onLoop.add(loop.inEventLoop());
        return request;
      }
    };
    Logged r = runOnce(client, Duration.ofSeconds(1), "abc", InvocationMode.SYNC);
    assertEquals(OK$.MODULE$, r.status);
    assertEquals(List.of(false), onLoop);
  }

  @Test
  void latencyIsRecordedInMicroseconds() throws Exception {
    FunctionClient slow = new FunctionClient(req -> CompletableFuture.supplyAsync(() -> req,
        CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)));
    RpcCallAction<FunctionClient, String, String> action =
        action(slow, Duration.ofSeconds(1), Expressions.toStaticValueExpression("x"), InvocationMode.ASYNC);
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    next();
    RequestStats s = lastRecorder.snapshot().get(0);
    assertEquals(1, s.count());
    assertTrue(s.p50() >= 19_000 && s.p50() < 1_000_000, "p50 " + s.p50() + " µs");
  }

  @Test
  void saveAsPutsTheReplysValueInTheSessionForTheNextCall() throws Exception {
    Logged r = runChecks(new FunctionClient(CompletableFuture::completedFuture),
        List.of(RpcChecks.response(String::length).is(3).saveAs("length")));
    assertEquals(OK$.MODULE$, r.status);
    assertEquals(3, (Integer) r.session.attributes().apply("length"));
  }

  @Test
  void aFailedResponseCheckIsAKoThatSaysWhatWasFound() throws Exception {
    Logged r = runChecks(new FunctionClient(CompletableFuture::completedFuture),
        List.of(RpcChecks.response(String::length).is(4).saveAs("length")));
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("check", r.code.get());
    assertEquals("response is 3, expected 4", r.message.get());
    assertFalse(r.session.contains("length"), "nothing is saved from a failed check");
  }

  @Test
  void aCodeCheckMakesAnExpectedErrorAnOk() throws Exception {
    FunctionClient failing = new FunctionClient(req -> CompletableFuture.failedFuture(new IllegalStateException("no")));
    Logged r = runChecks(failing, List.of(RpcChecks.code().is("IllegalStateException")));
    assertEquals(OK$.MODULE$, r.status);
    assertFalse(r.session.isFailed());
  }

  @Test
  void aCodeCheckOnAnotherErrorKeepsTheFrameworksCodeAndWords() throws Exception {
    FunctionClient failing = new FunctionClient(req -> CompletableFuture.failedFuture(new IllegalStateException("no")));
    Logged r = runChecks(failing, List.of(RpcChecks.code().is("NotFound"),
        RpcChecks.response(String::length).is(3)));
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("IllegalStateException", r.code.get());
    assertEquals("code is IllegalStateException, expected NotFound: IllegalStateException: no", r.message.get());
  }

  @Test
  void withoutACodeCheckAnErrorIsAKoAndResponseChecksDoNotRun() throws Exception {
    FunctionClient failing = new FunctionClient(req -> CompletableFuture.failedFuture(new IllegalStateException("no")));
    Logged r = runChecks(failing, List.of(RpcChecks.response(String::length).saveAs("length")));
    assertEquals(KO$.MODULE$, r.status);
    assertEquals("IllegalStateException: no", r.message.get());
  }

  private Logged runChecks(FunctionClient client, List<RpcCheck<? super String, ? super String>> checks)
      throws Exception {
    RpcCallAction<FunctionClient, String, String> action = actionWithChecks(client, Duration.ofSeconds(1),
        Expressions.toStaticValueExpression("abc"), InvocationMode.ASYNC, checks);
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    return next();
  }

  // --- harness ---

  private LatencyRecorder lastRecorder;
  private LabRun lastRun;

  private Logged runOnce(FunctionClient client, Duration timeout, String payload) throws Exception {
    return runOnce(client, timeout, payload, InvocationMode.ASYNC);
  }

  private Logged runOnce(FunctionClient client, Duration timeout, String payload, InvocationMode mode)
      throws Exception {
    RpcCallAction<FunctionClient, String, String> action =
        action(client, timeout, Expressions.toStaticValueExpression(payload), mode);
    loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1L, loop)));
    return next();
  }

  private Logged next() throws InterruptedException {
    Session s = resumed.poll(5, TimeUnit.SECONDS);
    assertNotNull(s, "the virtual user was never resumed");
    assertEquals(1, stats.responses.size());
    Logged r = stats.responses.get(0);
    r.session = s;
    return r;
  }

  private RpcCallAction<FunctionClient, String, String> action(FunctionClient client, Duration timeout,
                                               Function1<Session, Validation<Object>> payload, InvocationMode mode) {
    return action(client, timeout, payload, mode, List.of());
  }

  private RpcCallAction<FunctionClient, String, String> action(FunctionClient client, Duration timeout,
                                               Function1<Session, Validation<Object>> payload, InvocationMode mode,
                                               List<RpcCheck<? super String, ? super String>> extraChecks) {
    List<RpcCheck<? super String, ? super String>> checks = new java.util.ArrayList<>(List.of(RpcChecks.echo()));
    checks.addAll(extraChecks);
    return actionWithChecks(client, timeout, payload, mode, checks);
  }

  private RpcCallAction<FunctionClient, String, String> actionWithChecks(FunctionClient client, Duration timeout,
      Function1<Session, Validation<Object>> payload, InvocationMode mode,
      List<RpcCheck<? super String, ? super String>> checks) {
    return actionOf(FunctionClient.METHOD, client, RpcSettings.defaults(1).withTimeout(timeout).withMode(mode)
        .withSyncThreads(2), payload, checks);
  }

  private RpcCallAction<FunctionClient, String, String> actionOf(RpcMethod<FunctionClient, String, String> method,
      FunctionClient client, RpcSettings settings, Function1<Session, Validation<Object>> payload,
      List<RpcCheck<? super String, ? super String>> checks) {
    TestProtocol protocol = new TestProtocol(settings, client);
    CoreComponents core = new CoreComponents(null, null, null, Option.empty(), stats, new DefaultClock(), null, null);
    lastRun = new LabRun(LoadParams.fromSystemProperties()); // the lab's observer, with no report to write
    lastRecorder = lastRun.recorder();
    RpcComponents<FunctionClient> components = new RpcComponents<>(protocol, client, core);
    return new RpcCallAction<>("echo", method, payload, checks, components, lastRun, new Resume(loop, resumed));
  }
}
