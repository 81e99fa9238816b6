package protocols.rpc;

import io.gatling.core.session.Session;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * What one completed call was: OK, or a KO with its code and one-line message, after the request's
 * checks. Shared by the closed-loop action and the open-model sender, so a call is judged the same
 * way whichever load model made it.
 */
final class CallJudge<C extends RpcClient, Req, Resp> {
  private final List<RpcCheck<? super Req, ? super Resp>> checks;
  private final boolean checksJudgeErrors;
  private final RpcComponents<C> components;
  private final long timeoutMillis;
  /** The request's own deadline, or 0. */
  private final long deadlineMillis;

  /** The verdict: {@code failure} null for an OK; {@code session} is the one to go on with. */
  record Verdict(String code, String failure, Session session) {
    boolean ok() {
      return failure == null;
    }
  }

  CallJudge(List<RpcCheck<? super Req, ? super Resp>> checks, RpcComponents<C> components,
            RpcMethod<C, Req, Resp> method) {
    this.checks = List.copyOf(checks);
    this.checksJudgeErrors = checks.stream().anyMatch(RpcCheck::judgesErrors);
    this.components = components;
    this.timeoutMillis = components.protocol().settings().timeoutMillis();
    this.deadlineMillis = method.deadlineMillis();
  }

  /** The code of a call that timed out, whichever timeout fired. */
  static final String TIMEOUT = "timeout";

  Verdict judge(Session session, Req message, Resp reply, Throwable error) {
    String code = null;
    String failure = null;
    // A stream's reply checks may have saved values: the request's checks go on from there.
    Session after = reply instanceof StreamResult r && r.session() != null ? r.session() : session;
    String outcome = RpcCheck.OK;
    if (error != null) {
      outcome = null; // a KO by itself, unless a code check judges it (below)
      Throwable e = Errors.unwrap(error);
      if (components.client().timedOut(e)) {
        code = TIMEOUT;
        // One wording whichever fired first, the core's timer or the framework's own timeout (Thrift's
        // says more); but a request's own deadline, shorter than the run's timeout, is named as such.
        boolean ownDeadline = deadlineMillis > 0 && deadlineMillis < timeoutMillis && !(e instanceof TimeoutException);
        failure = "timeout after " + (ownDeadline ? deadlineMillis + " ms (the request's deadline)" : timeoutMillis
            + " ms") + (e instanceof RpcComponents.NeverStarted ? ": " + e.getMessage() : "");
      } else if (e instanceof RpcCallAction.Crash) {
        code = "crash";
        failure = "crash: " + e.getMessage();
      } else if ((failure = components.client().sizeLimit(e, message)) != null) {
        code = SizeLimit.CODE;
      } else {
        code = components.client().errorCode(e);
        failure = components.client().failureLine(e);
        outcome = checksJudgeErrors ? code : null; // with a code check, an expected error may be an OK
      }
    }
    if (outcome != null) {
      String errorLine = failure; // a judged error: its own words stay in the KO if a check fails
      code = null;
      failure = null;
      for (RpcCheck<? super Req, ? super Resp> check : checks) {
        RpcCheck.Result result;
        try {
          result = check.check(message, reply, outcome, after);
        } catch (RuntimeException | LinkageError | AssertionError e) {
          result = RpcCheck.Result.fail("check threw: " + Errors.oneLine(e)); // a user's check must not strand the user
        }
        if (result.failure() != null) {
          code = errorLine == null ? "check" : outcome;
          failure = errorLine == null ? result.failure() : result.failure() + ": " + errorLine;
          after = session;
          break;
        }
        after = result.session();
      }
    }
    return new Verdict(code, failure, after);
  }
}
