package protocols.dubbo;

import java.util.List;
import protocols.rpc.RpcCheck;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;
import protocols.rpc.StreamPlan;
import protocols.rpc.StreamResult;
import protocols.rpc.StreamTally;

/**
 * A streaming Triple request, one stream per execution:
 * {@code triple("chat").service(MobileService.class).bidiStream(MobileService::chat).messages(100).send(...)}.
 * Its reply is the stream's {@link StreamResult}, for checks such as {@code response(StreamResult::received).is(100L)}.
 * Immutable.
 */
public final class TripleStreamRequest<S, Req, Resp> extends RpcRequest<DubboClient, Req, StreamResult> {
  private final DubboService<S> service;
  private final TripleStream.ServerStream<S, Req, Resp> serverStream;
  private final TripleStream.Opening<S, Req, Resp> opening;
  private final StreamPlan plan;
  private final long deadlineMillis;

  private TripleStreamRequest(String name, DubboService<S> service, TripleStream.ServerStream<S, Req, Resp> serverStream,
                              TripleStream.Opening<S, Req, Resp> opening, StreamPlan plan, long deadlineMillis) {
    super(TripleProtocol.KEY, name);
    this.service = service;
    this.serverStream = serverStream;
    this.opening = opening;
    this.plan = plan;
    this.deadlineMillis = deadlineMillis;
  }

  /** A stream of {@code kind}: a server stream's method, or the opening of a client or bidirectional one. */
  static <S, Req, Resp> TripleStreamRequest<S, Req, Resp> of(String name, DubboService<S> service,
      StreamTally.Kind kind, TripleStream.ServerStream<S, Req, Resp> serverStream,
      TripleStream.Opening<S, Req, Resp> opening) {
    return new TripleStreamRequest<>(name, service, serverStream, opening, StreamPlan.of(kind), 0);
  }

  private TripleStreamRequest<S, Req, Resp> with(StreamPlan plan, long deadlineMillis) {
    return new TripleStreamRequest<>(name(), service, serverStream, opening, plan, deadlineMillis);
  }

  /**
   * How many messages a client or bidirectional stream sends (the payload, that many times) before it
   * completes; default 1. A server stream sends its one request: say how many it wants in the request.
   */
  public TripleStreamRequest<S, Req, Resp> messages(int count) {
    return with(plan.messages(name(), count), deadlineMillis);
  }

  /** A bidirectional stream whose every reply must equal the message it answers (an echo): else a KO. */
  public TripleStreamRequest<S, Req, Resp> echoed() {
    return with(plan.echoed(name()), deadlineMillis);
  }

  /** The stream must get exactly {@code count} replies by the time the server completes it, else a KO. */
  public TripleStreamRequest<S, Req, Resp> replies(long count) {
    return with(plan.replies(name(), StreamPlan.Replies.Rule.EXACTLY, count), deadlineMillis);
  }

  /** The stream must get at least {@code count} replies by the time the server completes it, else a KO. */
  public TripleStreamRequest<S, Req, Resp> atLeastReplies(long count) {
    return with(plan.replies(name(), StreamPlan.Replies.Rule.AT_LEAST, count), deadlineMillis);
  }

  /** Any number of replies, none included, until the server completes the stream (a subscription, a 1:0 chat). */
  public TripleStreamRequest<S, Req, Resp> anyReplies() {
    return with(plan.replies(name(), StreamPlan.Replies.Rule.ANY, 0), deadlineMillis);
  }

  /**
   * Every reply must pass {@code checks} (e.g. {@code response(Order::getSymbol).is("ACME")}), as it comes,
   * with its index from 0 in the session as {@code #{replyIndex}}; the first that fails ends the stream as
   * a KO naming the reply. Values they save reach the session as the last reply left them.
   */
  @SafeVarargs
  public final TripleStreamRequest<S, Req, Resp> checkEachReply(RpcCheck<Object, ? super Resp>... checks) {
    return with(plan.checkEachReply(List.of(checks)), deadlineMillis);
  }

  /**
   * Sends at {@code rate} messages per second from the stream's opening (default: as fast as the
   * window allows); each round trip counts from when its message was due, and a late send is counted.
   */
  public TripleStreamRequest<S, Req, Resp> perSecond(double rate) {
    return with(plan.perSecond(name(), rate), deadlineMillis);
  }

  /** The whole stream's deadline (default: the protocol's timeout), a KO {@code triple DEADLINE_EXCEEDED}. */
  public TripleStreamRequest<S, Req, Resp> deadline(java.time.Duration deadline) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive, got " + deadline);
    }
    return with(plan, deadline.toMillis());
  }

  @Override
  protected RpcMethod<DubboClient, Req, StreamResult> method() {
    return new TripleStream<>(service, name(), serverStream, opening, plan, deadlineMillis, null, null);
  }
}
