package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.util.DefaultClock;
import io.gatling.core.CoreComponents;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.gatling.javaapi.core.internal.Expressions;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import scala.Option;
import protocols.stats.RequestStats;
import protocols.stats.Warning;
import protocols.load.RunAnalysis;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;

/** Open-model senders against an in-process client: what a sender could not send is counted, not lost. */
class RpcOpenActionTest {

  @Test
  void aSenderThatCannotStartCountsItsShareAsNeverSentAndTheLevelSaysSo() throws Exception {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      ActionFixtures.FunctionClient client = new ActionFixtures.FunctionClient(CompletableFuture::completedFuture);
      // The first sender's session lacks what its header needs: binding the call fails, as an EL header would.
      RpcMethod<ActionFixtures.FunctionClient, String, String> method = new RpcMethod<>() {
        @Override
        public CompletionStage<String> callAsync(ActionFixtures.FunctionClient c, String request) {
          return ActionFixtures.FunctionClient.METHOD.callAsync(c, request);
        }

        @Override
        public RpcMethod<ActionFixtures.FunctionClient, String, String> bind(Session session) {
          if (session.userId() == 1) {
            throw new IllegalArgumentException("header x-token: No attribute named 'token' is defined");
          }
          return this;
        }
      };
      RpcSettings settings = RpcSettings.defaults(1);
      LabRun run = new LabRun(LoadParams.fromSystemProperties()); // the lab's observer, with no report to write
      CoreComponents core = new CoreComponents(null, null, null, Option.empty(),
          new ActionFixtures.RecordingStats(), new DefaultClock(), null, null);
      RpcComponents<ActionFixtures.FunctionClient> components = new RpcComponents<>(
          new ActionFixtures.TestProtocol(settings, client), client, core);
      // 1000 calls/s for a second, two senders: each sends every other call.
      SendSchedule.Plan plan = new SendSchedule.Plan("echo 1000 calls/s", "echo ramp to 1000 calls/s",
          new RateSchedule(0, 1_000, Duration.ZERO, Duration.ofSeconds(1)), System.nanoTime() + 5_000_000, 2, 5_000,
          () -> true);
      java.util.concurrent.atomic.AtomicInteger joined = new java.util.concurrent.atomic.AtomicInteger();
      SendSchedule level = observer -> {
        if (joined.get() == 0) {
          observer.openLevel(plan.name(), 1_000, 10_000, plan.startNanos());
        }
        return new SendSchedule.Joined(plan, joined.getAndIncrement());
      };
      LinkedBlockingQueue<Session> left = new LinkedBlockingQueue<>();
      Action next = new ActionFixtures.Resume(loop, left);
      RpcOpenAction<ActionFixtures.FunctionClient, String, String> action = new RpcOpenAction<>("echo", method,
          Expressions.toStaticValueExpression("abc"), List.of(RpcChecks.echo()), components, run, level, next);
      for (long user = 1; user <= 2; user++) {
        long id = user;
        loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", id, loop)));
      }
      for (int i = 0; i < 2; i++) {
        assertNotNull(left.poll(10, TimeUnit.SECONDS), "both senders left");
      }
      RequestStats s = run.recorder().stats("echo 1000 calls/s").orElseThrow();
      assertEquals(500, s.count(), "the other sender sent its share");
      assertEquals(500, s.open().unsent(), "the stopped sender's share, counted as never sent");
      assertTrue(s.open().unsentReason().contains("No attribute named 'token'"), s.open().unsentReason());
      RunAnalysis a = RunAnalysis.of(List.of(s), Optional.empty(), List.of());
      assertTrue(a.warnings().stream().anyMatch(w -> w.kind() == Warning.Kind.SENDER_STOPPED), a.warnings().toString());
      components.close();
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  @Test
  void streamsOpenedAtARateGiveTheirPerMessageFigures() throws Exception {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      ActionFixtures.FunctionClient client = new ActionFixtures.FunctionClient(CompletableFuture::completedFuture);
      // Each call is a stream that sent 5 messages and read 5, its first after 10 µs.
      RpcMethod<ActionFixtures.FunctionClient, String, StreamResult> stream = (c, request) -> {
        org.HdrHistogram.Histogram gaps = StreamResult.histogram();
        gaps.recordValue(20);
        return CompletableFuture.completedFuture(new StreamResult(5, 5, 10, gaps, StreamResult.histogram(), StreamResult.histogram()));
      };
      LabRun run = new LabRun(LoadParams.fromSystemProperties());
      CoreComponents core = new CoreComponents(null, null, null, Option.empty(),
          new ActionFixtures.RecordingStats(), new DefaultClock(), null, null);
      RpcComponents<ActionFixtures.FunctionClient> components = new RpcComponents<>(
          new ActionFixtures.TestProtocol(RpcSettings.defaults(1), client), client, core);
      SendSchedule.Plan plan = new SendSchedule.Plan("watch 200 calls/s", "watch ramp to 200 calls/s",
          new RateSchedule(0, 200, Duration.ZERO, Duration.ofSeconds(1)), System.nanoTime() + 5_000_000, 1, 5_000,
          () -> true);
      SendSchedule level = observer -> {
        observer.openLevel(plan.name(), 200, 10_000, plan.startNanos());
        return new SendSchedule.Joined(plan, 0);
      };
      LinkedBlockingQueue<Session> left = new LinkedBlockingQueue<>();
      RpcOpenAction<ActionFixtures.FunctionClient, String, StreamResult> action = new RpcOpenAction<>("watch",
          stream, Expressions.toStaticValueExpression("abc"), List.of(), components, run, level,
          new ActionFixtures.Resume(loop, left));
      loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1, loop)));
      assertNotNull(left.poll(10, TimeUnit.SECONDS), "the sender left");
      RequestStats calls = run.recorder().stats("watch 200 calls/s").orElseThrow();
      assertEquals(200, calls.count());
      protocols.stats.StreamStats streams = run.streams().snapshot().stream()
          .filter(x -> x.name().equals("watch 200 calls/s")).findFirst().orElseThrow(() ->
              new AssertionError("no stream figures: " + run.streams().snapshot()));
      assertEquals(200, streams.streams(), "every stream the rate opened");
      assertEquals(1_000, streams.messagesReceived());
      components.close();
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** Every open-model call is started before it completes: live in-flight counts never go negative. */
  @Test
  void everyCallOfARateLevelIsStartedBeforeItCompletes() throws Exception {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      ActionFixtures.FunctionClient client = new ActionFixtures.FunctionClient(CompletableFuture::completedFuture);
      java.util.concurrent.atomic.AtomicLong started = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong completed = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong minInFlight = new java.util.concurrent.atomic.AtomicLong();
      CallObserver counting = new CallObserver() {
        @Override
        public void started(String name, long startNanos) {
          started.incrementAndGet();
        }

        @Override
        public void completed(String request, String name, long intendedNanos, long startNanos, long endNanos,
                              String failure, boolean open) {
          minInFlight.accumulateAndGet(started.get() - completed.incrementAndGet(), Math::min);
        }

        @Override
        public void openLevel(String name, double rate, int maxInFlight, long startNanos) {
        }

        @Override
        public void dropped(String name, long dueNanos) {
        }

        @Override
        public void unsent(String name, long calls, String reason) {
        }
      };
      CoreComponents core = new CoreComponents(null, null, null, Option.empty(),
          new ActionFixtures.RecordingStats(), new DefaultClock(), null, null);
      RpcComponents<ActionFixtures.FunctionClient> components = new RpcComponents<>(
          new ActionFixtures.TestProtocol(RpcSettings.defaults(1), client), client, core);
      SendSchedule.Plan plan = new SendSchedule.Plan("echo 200 calls/s", "echo ramp to 200 calls/s",
          new RateSchedule(0, 200, Duration.ZERO, Duration.ofSeconds(1)), System.nanoTime() + 5_000_000, 1, 5_000,
          () -> true);
      SendSchedule level = observer -> new SendSchedule.Joined(plan, 0);
      LinkedBlockingQueue<Session> left = new LinkedBlockingQueue<>();
      RpcOpenAction<ActionFixtures.FunctionClient, String, String> action = new RpcOpenAction<>("echo",
          ActionFixtures.FunctionClient.METHOD, Expressions.toStaticValueExpression("abc"), List.of(), components,
          counting, level, new ActionFixtures.Resume(loop, left));
      loop.execute(() -> action.execute(Session$.MODULE$.apply("scn", 1, loop)));
      assertNotNull(left.poll(10, TimeUnit.SECONDS), "the sender left");
      assertEquals(200, started.get(), "every call sent was started");
      assertEquals(200, completed.get());
      assertEquals(0, minInFlight.get(), "never more completed than started");
      components.close();
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }
}
