package protocols.core;

import java.util.Objects;

/**
 * A check on a reply, run on the virtual user's event loop.
 *
 * @param <Req> request type
 * @param <Resp> reply type
 */
@FunctionalInterface
public interface RpcCheck<Req, Resp> {

  /** Returns null when the reply passes, otherwise the KO message. */
  String check(Req request, Resp reply);

  /** The echo check: the reply must equal the request, field by field. */
  static <T> RpcCheck<T, T> echo() {
    return (request, reply) -> Objects.equals(request, reply) ? null : "echo mismatch: reply differs from request";
  }
}
