package protocols.core;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import scala.Function1;
import scala.Option;

/**
 * One RPC call per execution. It starts the framework's call and returns; the reply, a failure or the
 * timeout completes the call's future once, the end time is stamped on the thread that completed it,
 * and {@link #complete} runs the checks, records and logs the result, and resumes the user on its own
 * event loop. Every outcome (OK, KO, timeout, crash) goes through {@link #complete} exactly once.
 */
final class RpcCallAction<Req, Resp> extends SafeAction {
  private final Function1<Session, Validation<String>> requestName;
  private final Function1<Session, Validation<Object>> payload;
  private final List<RpcCheck<Req, Resp>> checks;
  private final RpcComponents<Req, Resp> components;
  private final Action next;
  private final long timeoutMillis;
  private final long koPauseMillis;

  RpcCallAction(String name, Function1<Session, Validation<String>> requestName,
                Function1<Session, Validation<Object>> payload, List<RpcCheck<Req, Resp>> checks,
                RpcComponents<Req, Resp> components, Action next) {
    super(name, components.core().statsEngine(), components.core().clock());
    this.requestName = requestName;
    this.payload = payload;
    this.checks = List.copyOf(checks);
    this.components = components;
    this.next = next;
    this.timeoutMillis = components.protocol().settings().timeoutMillis();
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

    long startMillis = clock.nowMillis();
    long startNanos = System.nanoTime();
    String request = Faults.name(level, startNanos); // calls in a fault window are logged apart
    components.call(session.userId(), message).whenComplete((reply, error) -> {
      long endNanos = System.nanoTime();
      long endMillis = clock.nowMillis();
      try {
        session.eventLoop().execute(
            () -> complete(session, level, request, message, reply, error, startMillis, endMillis, startNanos, endNanos));
      } catch (RejectedExecutionException runIsOver) {
        // the event loop is shutting down: the run has ended and nobody waits for this user
      }
    });
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
    String code = null;
    String failure = null;
    if (error != null) {
      Throwable e = Errors.unwrap(error);
      if (e instanceof TimeoutException || components.client().isTimeout(e)) {
        code = "timeout";
        failure = "timeout after " + timeoutMillis + " ms"
            + (e instanceof TimeoutException && e.getMessage() != null ? ": " + e.getMessage() : "");
      } else if (e instanceof Crash) {
        code = "crash";
        failure = "crash: " + e.getMessage();
      } else if ((failure = components.client().sizeLimit(e, message)) != null) {
        code = SizeLimit.CODE;
      } else {
        code = components.client().errorCode(e);
        failure = Errors.oneLine(e);
      }
    } else {
      for (RpcCheck<Req, Resp> check : checks) {
        try {
          failure = check.check(message, reply);
        } catch (RuntimeException | LinkageError | AssertionError e) {
          failure = "check threw: " + Errors.oneLine(e); // a user's check must not strand the user
        }
        if (failure != null) {
          code = "check";
          break;
        }
      }
    }
    boolean ok = failure == null;
    Session after = session;
    try {
      components.recorder().record(request, startNanos, endNanos, failure);
      Status status = ok ? OK$.MODULE$ : KO$.MODULE$;
      statsEngine.logResponse(session.scenario(), session.groups(), request, startMillis, endMillis, status,
          Option.apply(code), Option.apply(failure));
      after = session.logGroupRequestTimings(startMillis, endMillis);
    } catch (RuntimeException e) {
      ok = false;
      logger().underlying().error("could not log " + request + ": " + Errors.oneLine(e));
    }
    Faults.completed(level, startNanos, endNanos, ok);
    if (ok) {
      FailureWatch.ok();
      next.$bang(after);
      return;
    }
    if (request.equals(level) && !Faults.inWindow(level, endNanos)) {
      // KOs of an injected fault are expected, not a reason to stop the run: neither those of calls
      // started during it nor those of calls in flight when it struck (a server slow to restart on a
      // busy machine once had the run stopped 10 s after a kill).
      FailureWatch.ko();
    }
    Session failed = after.markAsFailed();
    if (koPauseMillis > 0 && !"timeout".equals(code)) {
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

  /** A request that could not be built or sent. */
  static final class Crash extends RuntimeException {
    Crash(String message) {
      super(message, null, false, false);
    }
  }
}
