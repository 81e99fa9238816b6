package protocols.rpc;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import scala.Function1;
import scala.Option;

/**
 * One RPC call per execution. It starts the framework's call and returns; the reply, a failure or the
 * timeout completes the call's future once, the end time is stamped on the thread that completed it,
 * and {@link #complete} runs the checks, records and logs the result, and resumes the user on its own
 * event loop. Every outcome (OK, KO, timeout, crash) goes through {@link #complete} exactly once.
 */
final class RpcCallAction<C extends RpcClient, Req, Resp> extends SafeAction {
  private final Function1<Session, Validation<String>> requestName;
  private final RpcMethod<C, Req, Resp> method;
  private final Function1<Session, Validation<Object>> payload;
  private final CallJudge<C, Req, Resp> judge;
  private final RpcComponents<C> components;
  private final CallObserver observer;
  private final Action next;
  private final long koPauseMillis;

  RpcCallAction(String name, RpcMethod<C, Req, Resp> method, Function1<Session, Validation<Object>> payload,
                List<RpcCheck<? super Req, ? super Resp>> checks, RpcComponents<C> components, CallObserver observer,
                Action next) {
    super(name, components.core().statsEngine(), components.core().clock());
    this.requestName = Expressions.toStringExpression(name);
    this.method = method;
    this.payload = payload;
    this.judge = new CallJudge<>(checks, components, method);
    this.components = components;
    this.observer = observer;
    this.next = next;
    this.koPauseMillis = components.protocol().settings().koPause().toMillis();
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void send(Session session) {
    Validation<String> resolvedName = requestName.apply(session);
    if ((Object) resolvedName instanceof Failure f) {
      crash(session, name, "request name: " + f.message());
      return;
    }
    String level = ((Success<String>) resolvedName).value();
    Validation<Object> resolvedPayload = payload.apply(session);
    if ((Object) resolvedPayload instanceof Failure f) {
      crash(session, level, "payload: " + f.message());
      return;
    }
    Req message = (Req) ((Success<Object>) resolvedPayload).value();
    RpcMethod<C, Req, Resp> bound = method.bind(session);

    // The lab's bookkeeping first: the timed interval is the framework's call and nothing of the lab's.
    String request = observer.nameFor(level, System.nanoTime()); // e.g. a fault window's calls, logged apart
    long startMillis = clock.nowMillis();
    long startNanos = System.nanoTime();
    observer.started(request, startNanos);
    boolean[] sending = {true};
    EventLoop loop = session.eventLoop();
    components.call(session.userId(), bound, message).whenComplete((reply, error) -> {
      long endNanos = System.nanoTime();
      long endMillis = clock.nowMillis();
      ReplyHop.resume(loop, sending[0],
          () -> complete(session, level, request, message, reply, error, startMillis, endMillis, startNanos, endNanos));
    });
    sending[0] = false;
  }

  @Override
  protected void crashed(Session session, Throwable error) {
    crash(session, name, Errors.oneLine(error));
  }

  private void crash(Session session, String request, String message) {
    long now = clock.nowMillis();
    long nanos = System.nanoTime();
    complete(session, request, request, null, null, new Crash(message), now, now, nanos, nanos);
  }

  /** The one completion path; runs on the user's event loop. */
  private void complete(Session session, String level, String request, Req message, Resp reply, Throwable error,
                        long startMillis, long endMillis, long startNanos, long endNanos) {
    CallJudge.Verdict verdict = judge.judge(session, message, reply, error);
    String code = verdict.code();
    String failure = verdict.failure();
    Session after = verdict.session();
    boolean ok = failure == null;
    Session logged = after;
    try {
      observer.completed(level, request, startNanos, startNanos, endNanos, failure, false);
      StreamResult stream = ok && reply instanceof StreamResult r ? r : StreamResult.partialOf(error);
      if (stream != null) {
        observer.streamed(request, startNanos, endNanos, stream, ok);
      }
      Status status = ok ? OK$.MODULE$ : KO$.MODULE$;
      scala.collection.immutable.List<String> groups = session.groups(); // a walk of the block stack (5% of a profile)
      statsEngine.logResponse(session.scenario(), groups, request, startMillis, endMillis, status,
          Option.apply(code), Option.apply(failure));
      if (!groups.isEmpty()) {
        logged = after.logGroupRequestTimings(startMillis, endMillis); // without groups: nothing to add to
      }
    } catch (RuntimeException e) {
      ok = false;
      logger().underlying().error("could not log " + request + ": " + Errors.oneLine(e));
    }
    if (ok) {
      next.$bang(logged);
      return;
    }
    Session failed = logged.markAsFailed();
    if (failedAtOnce(error, code, endNanos - startNanos)) {
      // A failure that came at once (a dead connection) would otherwise loop at full speed.
      try {
        session.eventLoop().schedule(() -> next.$bang(failed), koPauseMillis, TimeUnit.MILLISECONDS);
        return;
      } catch (RejectedExecutionException runIsOver) {
        // the event loop is shutting down: go on at once
      }
    }
    next.$bang(failed);
  }

  /** Whether a KO is followed by the pause ({@link RpcClient#pausesAfter}); {@code code} says a timeout. */
  boolean failedAtOnce(Throwable error, String code, long elapsedNanos) {
    return RpcClient.pausesAfter(error, CallJudge.TIMEOUT.equals(code), elapsedNanos,
        TimeUnit.MILLISECONDS.toNanos(koPauseMillis));
  }

  /** A request that could not be built or sent. */
  static final class Crash extends RuntimeException {
    Crash(String message) {
      super(message, null, false, false);
    }
  }
}
