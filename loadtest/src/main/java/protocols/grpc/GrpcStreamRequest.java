package protocols.grpc;

import io.grpc.MethodDescriptor;
import java.time.Duration;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;
import protocols.rpc.StreamResult;

/**
 * A streaming gRPC request, one stream per execution: {@code grpc("chat").bidiStream(SomeServiceGrpc.getChatMethod())
 * .messages(100).send(...)}. Its reply is the stream's {@link StreamResult}, for checks such as
 * {@code response(StreamResult::received).is(100L)}. Immutable.
 */
public final class GrpcStreamRequest<Req, Resp> extends RpcRequest<GrpcClient, Req, StreamResult> {
  private final MethodDescriptor<Req, Resp> method;
  private final int messages;
  private final boolean echoed;
  private final GrpcCall.Options options;

  private GrpcStreamRequest(String name, MethodDescriptor<Req, Resp> method, int messages, boolean echoed,
                            GrpcCall.Options options) {
    super(GrpcProtocol.KEY, name);
    this.method = method;
    this.messages = messages;
    this.echoed = echoed;
    this.options = options;
  }

  static <Req, Resp> GrpcStreamRequest<Req, Resp> of(String name, MethodDescriptor<Req, Resp> method,
                                                    MethodDescriptor.MethodType kind) {
    if (method.getType() != kind) {
      throw new IllegalArgumentException(method.getFullMethodName() + " is " + method.getType() + ", not " + kind);
    }
    return new GrpcStreamRequest<>(name, method, 1, false, GrpcCall.Options.NONE);
  }

  /**
   * How many messages a client or bidirectional stream sends (the payload, that many times) before it
   * half-closes; default 1. A server stream sends its one request: say how many it wants in the request.
   */
  public GrpcStreamRequest<Req, Resp> messages(int count) {
    if (method.getType() == MethodDescriptor.MethodType.SERVER_STREAMING) {
      throw new IllegalArgumentException(method.getFullMethodName() + " is a server stream: it sends one request");
    }
    if (count < 1) {
      throw new IllegalArgumentException("messages must be at least 1, got " + count);
    }
    return new GrpcStreamRequest<>(name(), method, count, echoed, options);
  }

  /** A bidirectional stream whose every reply must equal the message it answers (an echo): else a KO. */
  public GrpcStreamRequest<Req, Resp> echoed() {
    if (method.getType() != MethodDescriptor.MethodType.BIDI_STREAMING) {
      throw new IllegalArgumentException(method.getFullMethodName() + " is not bidirectional: nothing is echoed");
    }
    return new GrpcStreamRequest<>(name(), method, messages, true, options);
  }

  /** A metadata header sent when the stream opens; the value may hold Gatling EL. */
  public GrpcStreamRequest<Req, Resp> header(String name, String valueExpression) {
    return new GrpcStreamRequest<>(name(), method, messages, echoed, options.header(name, valueExpression));
  }

  /** The whole stream's gRPC deadline (default: the protocol's timeout). */
  public GrpcStreamRequest<Req, Resp> deadline(Duration deadline) {
    return new GrpcStreamRequest<>(name(), method, messages, echoed, options.deadline(deadline));
  }

  @Override
  protected RpcMethod<GrpcClient, Req, StreamResult> method() {
    return new GrpcStream<>(method, messages, echoed, options, null);
  }
}
