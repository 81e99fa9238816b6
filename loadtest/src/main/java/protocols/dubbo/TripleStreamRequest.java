package protocols.dubbo;

import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;
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
  private final StreamTally.Kind kind;
  private final TripleStream.ServerStream<S, Req, Resp> serverStream;
  private final TripleStream.Opening<S, Req, Resp> opening;
  private final int messages;
  private final boolean echoed;
  private final long deadlineMillis;

  private TripleStreamRequest(String name, DubboService<S> service, StreamTally.Kind kind,
                              TripleStream.ServerStream<S, Req, Resp> serverStream,
                              TripleStream.Opening<S, Req, Resp> opening, int messages, boolean echoed,
                              long deadlineMillis) {
    super(TripleProtocol.KEY, name);
    this.service = service;
    this.kind = kind;
    this.serverStream = serverStream;
    this.opening = opening;
    this.messages = messages;
    this.echoed = echoed;
    this.deadlineMillis = deadlineMillis;
  }

  /** A stream of {@code kind}: a server stream's method, or the opening of a client or bidirectional one. */
  static <S, Req, Resp> TripleStreamRequest<S, Req, Resp> of(String name, DubboService<S> service,
      StreamTally.Kind kind, TripleStream.ServerStream<S, Req, Resp> serverStream,
      TripleStream.Opening<S, Req, Resp> opening) {
    return new TripleStreamRequest<>(name, service, kind, serverStream, opening, 1, false, 0);
  }

  /**
   * How many messages a client or bidirectional stream sends (the payload, that many times) before it
   * completes; default 1. A server stream sends its one request: say how many it wants in the request.
   */
  public TripleStreamRequest<S, Req, Resp> messages(int count) {
    if (kind == StreamTally.Kind.SERVER) {
      throw new IllegalArgumentException(name() + " is a server stream: it sends one request");
    }
    if (count < 1) {
      throw new IllegalArgumentException("messages must be at least 1, got " + count);
    }
    return new TripleStreamRequest<>(name(), service, kind, serverStream, opening, count, echoed, deadlineMillis);
  }

  /** A bidirectional stream whose every reply must equal the message it answers (an echo): else a KO. */
  public TripleStreamRequest<S, Req, Resp> echoed() {
    if (kind != StreamTally.Kind.BIDI) {
      throw new IllegalArgumentException(name() + " is not bidirectional: nothing is echoed");
    }
    return new TripleStreamRequest<>(name(), service, kind, serverStream, opening, messages, true, deadlineMillis);
  }

  /** The whole stream's deadline (default: the protocol's timeout), a KO {@code triple DEADLINE_EXCEEDED}. */
  public TripleStreamRequest<S, Req, Resp> deadline(java.time.Duration deadline) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive, got " + deadline);
    }
    return new TripleStreamRequest<>(name(), service, kind, serverStream, opening, messages, echoed, deadline.toMillis());
  }

  @Override
  protected RpcMethod<DubboClient, Req, StreamResult> method() {
    return new TripleStream<>(service, name(), kind, serverStream, opening, messages, echoed, deadlineMillis, null);
  }
}
