package protocols.rpc;

import io.gatling.core.session.Session;

/**
 * A check on one call's outcome, run on the virtual user's event loop. Build them with
 * {@link RpcChecks}: {@code echo()}, {@code response(Reply::getX).is(...)}, {@code code().is(...)}.
 *
 * @param <Req> what the call was given
 * @param <Resp> what it returned
 */
@FunctionalInterface
public interface RpcCheck<Req, Resp> {

  /**
   * @param request what the call was given
   * @param reply the reply, or null if the call failed
   * @param code {@link #OK}, or the framework's code for the call's error (see {@link RpcClient#errorCode})
   * @param session the user's session
   * @return the session to go on with (values saved into it), or a failure
   */
  Result check(Req request, Resp reply, String code, Session session);

  /** Whether a failed call is for this check to judge (a code check) rather than a KO by itself. */
  default boolean judgesErrors() {
    return false;
  }

  /** The code of a call that succeeded. */
  String OK = "OK";

  /** A check's verdict: a failure message, or the session to go on with. */
  record Result(Session session, String failure) {
    public static Result ok(Session session) {
      return new Result(session, null);
    }

    public static Result fail(String failure) {
      return new Result(null, failure);
    }
  }
}
