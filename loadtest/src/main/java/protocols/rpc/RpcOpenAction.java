package protocols.rpc;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import scala.Function1;
import scala.Option;

/**
 * One sender of an open-model level: a virtual user that sends its share of the level's schedule
 * (calls {@code sender}, {@code sender + senders}, ...) from its own event loop, without waiting for
 * replies, and leaves when the schedule is done and its last call has completed. Each call is judged
 * as a closed-loop call is ({@link CallJudge}), recorded with its due time, and logged to Gatling
 * with the due time as its start, so Gatling's response times are from the schedule too.
 */
final class RpcOpenAction<C extends RpcClient, Req, Resp> extends SafeAction {
  /** Calls sent in one go before the loop gets to run other tasks (replies) when the sender is behind. */
  private static final int MAX_BURST = 256;

  /** Ids for the sync pool: one per call, never a virtual user's (those are positive). */
  private final AtomicLong callIds = new AtomicLong();
  private final RpcMethod<C, Req, Resp> method;
  private final Function1<Session, Validation<Object>> payload;
  private final CallJudge<C, Req, Resp> judge;
  private final RpcComponents<C> components;
  private final CallObserver observer;
  private final SendSchedule schedule;
  private final Action next;

  RpcOpenAction(String name, RpcMethod<C, Req, Resp> method, Function1<Session, Validation<Object>> payload,
                List<RpcCheck<? super Req, ? super Resp>> checks, RpcComponents<C> components, CallObserver observer,
                SendSchedule schedule, Action next) {
    super(name, components.core().statsEngine(), components.core().clock());
    this.method = method;
    this.payload = payload;
    this.judge = new CallJudge<>(checks, components, method);
    this.components = components;
    this.observer = observer;
    this.schedule = schedule;
    this.next = next;
  }

  @Override
  protected void send(Session session) {
    SendSchedule.Joined joined = schedule.join(observer);
    if (joined == null) {
      next.$bang(session); // auto rates: the search is over, this level is not needed
      return;
    }
    Sender sender;
    try {
      sender = new Sender(session, joined.plan(), joined.sender());
    } catch (RuntimeException | LinkageError | AssertionError e) {
      unsent(joined.plan(), joined.sender(), e); // e.g. a header whose EL cannot be resolved
      next.$bang(session);
      return;
    }
    sender.run();
  }

  @Override
  protected void crashed(Session session, Throwable error) {
    logger().underlying().error("open-model sender crashed: " + Errors.oneLine(error));
    next.$bang(session);
  }

  /**
   * A sender that stops with calls still due: they are counted as never sent (ramp and level apart),
   * with the reason, so the level says it offered less than its rate instead of going quiet.
   */
  private void unsent(SendSchedule.Plan plan, long from, Throwable error) {
    RateSchedule schedule = plan.schedule();
    long total = schedule.totalCalls();
    long inRamp = 0;
    long inLevel = 0;
    for (long k = from; k < total; k += plan.senders()) {
      if (schedule.inRamp(k)) {
        inRamp++;
      } else {
        inLevel++;
      }
    }
    String reason = "a sender stopped: " + Errors.oneLine(error);
    logger().underlying().error("open-model sender of " + plan.name() + " stopped with " + (inRamp + inLevel)
        + " calls due: " + Errors.oneLine(error));
    if (inRamp > 0) {
      observer.unsent(plan.rampName(), inRamp, reason);
    }
    if (inLevel > 0) {
      observer.unsent(plan.name(), inLevel, reason);
    }
  }

  private final class Sender implements Runnable {
    private final Session session;
    private final SendSchedule.Plan plan;
    private final RpcMethod<C, Req, Resp> bound;
    private final scala.collection.immutable.List<String> groups;
    private final EventLoop loop;
    private long k;
    private int inFlight;
    private boolean sending = true;
    private boolean left;

    Sender(Session session, SendSchedule.Plan plan, int index) {
      this.session = session;
      this.plan = plan;
      this.bound = method.bind(session);
      this.groups = session.groups();
      this.loop = session.eventLoop();
      this.k = index;
    }

    /** Sends every call that is due, then sleeps until the next one; runs on the sender's loop. */
    @Override
    public void run() {
      try {
        long now = System.nanoTime();
        int burst = 0;
        while (sending) {
          if (k >= plan.schedule().totalCalls() || !plan.keepSending().getAsBoolean()) {
            sending = false;
            break;
          }
          long due = plan.startNanos() + plan.schedule().dueNanos(k);
          if (due > now) {
            loop.schedule(this, due - now, TimeUnit.NANOSECONDS);
            return;
          }
          if (++burst > MAX_BURST) {
            loop.execute(this);
            return;
          }
          String name = plan.schedule().inRamp(k) ? plan.rampName() : plan.name();
          if (inFlight >= plan.capPerSender()) {
            observer.dropped(name, due);
          } else {
            sendOne(name, due);
          }
          k += plan.senders();
          now = System.nanoTime();
        }
      } catch (RejectedExecutionException runIsOver) {
        sending = false; // the event loop is shutting down
      } catch (RuntimeException | LinkageError | AssertionError e) {
        sending = false;
        unsent(plan, k, e);
      }
      leaveIfDone();
    }

    @SuppressWarnings("unchecked")
    private void sendOne(String name, long due) {
      Validation<Object> resolved = payload.apply(session);
      String request = observer.nameFor(name, System.nanoTime());
      observer.started(request, due); // an open level's clock runs on due times
      long startMillis = clock.nowMillis();
      long startNanos = System.nanoTime();
      inFlight++;
      if ((Object) resolved instanceof Failure f) {
        complete(name, request, due, null, null, new RpcCallAction.Crash("payload: " + f.message()), startMillis,
            startNanos, startMillis, startNanos);
        return;
      }
      Req message = (Req) ((Success<Object>) resolved).value();
      components.call(-callIds.incrementAndGet(), bound, message).whenComplete((reply, error) -> {
        long endNanos = System.nanoTime();
        long endMillis = clock.nowMillis();
        ReplyHop.resume(loop, false,
            () -> complete(name, request, due, message, reply, error, startMillis, startNanos, endMillis, endNanos));
      });
    }

    private void complete(String name, String request, long due, Req message, Resp reply, Throwable error,
                          long startMillis, long startNanos, long endMillis, long endNanos) {
      inFlight--;
      CallJudge.Verdict verdict = judge.judge(session, message, reply, error);
      boolean ok = verdict.ok();
      try {
        observer.completed(name, request, due, startNanos, endNanos, verdict.failure(), true);
        StreamResult stream = ok && reply instanceof StreamResult r ? r : StreamResult.partialOf(error);
        if (stream != null) { // streams opened at a rate, as in closed levels; a failed one's messages too
          observer.streamed(request, startNanos, endNanos, stream, ok);
        }
        long dueMillis = startMillis - (startNanos - due) / 1_000_000; // Gatling's start: the due time
        statsEngine.logResponse(session.scenario(), groups, request, dueMillis, endMillis,
            ok ? OK$.MODULE$ : KO$.MODULE$, Option.apply(verdict.code()), Option.apply(verdict.failure()));
      } catch (RuntimeException e) {
        logger().underlying().error("could not log " + request + ": " + Errors.oneLine(e));
      }
      leaveIfDone();
    }

    /** The user leaves once its schedule is done and its last call has completed. */
    private void leaveIfDone() {
      if (!sending && inFlight == 0 && !left) {
        left = true;
        next.$bang(session);
      }
    }
  }
}
