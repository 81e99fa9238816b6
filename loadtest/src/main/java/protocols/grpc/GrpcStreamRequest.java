package protocols.grpc;

import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.List;
import protocols.rpc.RpcCheck;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;
import protocols.rpc.StreamPlan;
import protocols.rpc.StreamResult;
import protocols.rpc.StreamTally;

/**
 * A streaming gRPC request, one stream per execution: {@code grpc("chat").bidiStream(SomeServiceGrpc.getChatMethod())
 * .messages(100).send(...)}. Its reply is the stream's {@link StreamResult}, for checks such as
 * {@code response(StreamResult::received).is(100L)}. Immutable.
 */
public final class GrpcStreamRequest<Req, Resp> extends RpcRequest<GrpcClient, Req, StreamResult> {
  private final String method;
  private final StreamPlan plan;
  private final GrpcCall.Options options;
  private final Maker<Req> maker;

  /** Makes the stream call once the request is complete. */
  @FunctionalInterface
  private interface Maker<Req> {
    RpcMethod<GrpcClient, Req, StreamResult> make(StreamPlan plan, GrpcCall.Options options);
  }

  private GrpcStreamRequest(String name, String method, StreamPlan plan, GrpcCall.Options options, Maker<Req> maker) {
    super(GrpcProtocol.KEY, name);
    this.method = method;
    this.plan = plan;
    this.options = options;
    this.maker = maker;
  }

  static <Req, Resp> GrpcStreamRequest<Req, Resp> of(String name, MethodDescriptor<Req, Resp> method,
                                                    MethodDescriptor.MethodType kind) {
    if (method.getType() != kind) {
      throw new IllegalArgumentException(method.getFullMethodName() + " is " + method.getType() + ", not " + kind);
    }
    return new GrpcStreamRequest<>(name, method.getFullMethodName(), StreamPlan.of(kindOf(kind)), GrpcCall.Options.NONE,
        (plan, options) -> new GrpcStream<>(method, plan, options, null, null));
  }

  private static StreamTally.Kind kindOf(MethodDescriptor.MethodType type) {
    return switch (type) {
      case SERVER_STREAMING -> StreamTally.Kind.SERVER;
      case CLIENT_STREAMING -> StreamTally.Kind.CLIENT;
      default -> StreamTally.Kind.BIDI;
    };
  }

  private GrpcStreamRequest<Req, Resp> with(StreamPlan plan, GrpcCall.Options options) {
    return new GrpcStreamRequest<>(name(), method, plan, options, maker);
  }

  /**
   * How many messages a client or bidirectional stream sends (the payload, that many times) before it
   * half-closes; default 1. A server stream sends its one request: say how many it wants in the request.
   */
  public GrpcStreamRequest<Req, Resp> messages(int count) {
    return with(plan.messages(method, count), options);
  }

  /** A bidirectional stream whose every reply must equal the message it answers (an echo): else a KO. */
  public GrpcStreamRequest<Req, Resp> echoed() {
    return with(plan.echoed(method), options);
  }

  /** The stream must get exactly {@code count} replies by the time the server completes it, else a KO. */
  public GrpcStreamRequest<Req, Resp> replies(long count) {
    return with(plan.replies(method, StreamPlan.Replies.Rule.EXACTLY, count), options);
  }

  /** The stream must get at least {@code count} replies by the time the server completes it, else a KO. */
  public GrpcStreamRequest<Req, Resp> atLeastReplies(long count) {
    return with(plan.replies(method, StreamPlan.Replies.Rule.AT_LEAST, count), options);
  }

  /** Any number of replies, none included, until the server completes the stream (a subscription, a 1:0 chat). */
  public GrpcStreamRequest<Req, Resp> anyReplies() {
    return with(plan.replies(method, StreamPlan.Replies.Rule.ANY, 0), options);
  }

  /**
   * Every reply must pass {@code checks} (e.g. {@code response(Order::getSymbol).is("ACME")}), as it comes,
   * with its index from 0 in the session as {@code #{replyIndex}}; the first that fails ends the stream as
   * a KO naming the reply. Values they save reach the session as the last reply left them.
   */
  @SafeVarargs
  public final GrpcStreamRequest<Req, Resp> checkEachReply(RpcCheck<Object, ? super Resp>... checks) {
    return with(plan.checkEachReply(List.of(checks)), options);
  }

  /**
   * Sends at {@code rate} messages per second from the stream's opening (default: as fast as flow
   * control allows); each round trip counts from when its message was due, and a late send is counted.
   */
  public GrpcStreamRequest<Req, Resp> perSecond(double rate) {
    return with(plan.perSecond(method, rate), options);
  }

  /** A metadata header sent when the stream opens; the value may hold Gatling EL. */
  public GrpcStreamRequest<Req, Resp> header(String name, String valueExpression) {
    return with(plan, options.header(name, valueExpression));
  }

  /** The whole stream's gRPC deadline (default: the protocol's timeout). */
  public GrpcStreamRequest<Req, Resp> deadline(Duration deadline) {
    return with(plan, options.deadline(deadline));
  }

  @Override
  protected RpcMethod<GrpcClient, Req, StreamResult> method() {
    return maker.make(plan, options);
  }

  /**
   * A streaming method named by its full name, {@code package.Service/Method}, without generated code:
   * its schema from a descriptor set or the server's reflection service, its payload JSON (protobuf's
   * JSON mapping, Gatling EL allowed), its messages {@code DynamicMessage}s.
   */
  public static final class Dynamic {
    private final String name;
    private final String fullMethodName;
    private final MethodDescriptor.MethodType kind;

    Dynamic(String name, String fullMethodName, MethodDescriptor.MethodType kind) {
      this.name = name;
      this.fullMethodName = GrpcSchemas.checkFullName(fullMethodName);
      this.kind = kind;
    }

    /** The schema from a file {@code protoc --descriptor_set_out=FILE --include_imports} wrote, read now. */
    public GrpcStreamRequest<String, DynamicMessage> fromDescriptorSet(String file) {
      MethodDescriptor<DynamicMessage, DynamicMessage> m = GrpcSchemas.fromDescriptorSet(file, fullMethodName, kind);
      return new GrpcStreamRequest<>(name, fullMethodName, StreamPlan.of(kindOf(kind)), GrpcCall.Options.NONE,
          (plan, options) -> GrpcJsonCall.of(m, new GrpcStream<>(m, plan, options, null, null)));
    }

    /** The schema from the server's reflection service, asked once when the run starts. */
    public GrpcStreamRequest<String, DynamicMessage> fromReflection() {
      return new GrpcStreamRequest<>(name, fullMethodName, StreamPlan.of(kindOf(kind)), GrpcCall.Options.NONE,
          (plan, options) -> new GrpcJsonCall.Reflected<>(fullMethodName, kind,
              m -> new GrpcStream<>(m, plan, options, null, null)));
    }
  }
}
