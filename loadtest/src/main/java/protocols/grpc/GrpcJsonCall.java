package protocols.grpc;

import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.gatling.core.session.Session;
import io.grpc.MethodDescriptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Function;
import protocols.rpc.RpcMethod;

/**
 * A method without generated code, unary or streaming: JSON in (protobuf's JSON mapping, parsed once
 * per call or stream into a {@code DynamicMessage} of {@code inputType}), then {@code call}.
 */
record GrpcJsonCall<Resp>(RpcMethod<GrpcClient, DynamicMessage, Resp> call, Descriptors.Descriptor inputType)
    implements RpcMethod<GrpcClient, String, Resp> {

  /** {@code call} of {@code method}, a method made from a schema. */
  static <Resp> GrpcJsonCall<Resp> of(MethodDescriptor<DynamicMessage, ?> method,
                                      RpcMethod<GrpcClient, DynamicMessage, Resp> call) {
    return new GrpcJsonCall<>(call, GrpcSchemas.inputType(method));
  }

  @Override
  public RpcMethod<GrpcClient, String, Resp> bind(Session session) {
    RpcMethod<GrpcClient, DynamicMessage, Resp> bound = call.bind(session);
    return bound == call ? this : new GrpcJsonCall<>(bound, inputType);
  }

  @Override
  public CompletionStage<Resp> callAsync(GrpcClient client, String json) {
    DynamicMessage request;
    try {
      request = parse(json);
    } catch (InvalidProtocolBufferException e) {
      return CompletableFuture.failedFuture(e);
    }
    return call.callAsync(client, request);
  }

  @Override
  public void callWithCallback(GrpcClient client, String json, BiConsumer<? super Resp, ? super Throwable> done) {
    DynamicMessage request;
    try {
      request = parse(json);
    } catch (InvalidProtocolBufferException e) {
      done.accept(null, e);
      return;
    }
    call.callWithCallback(client, request, done);
  }

  @Override
  public boolean enforcesTimeout() {
    return call.enforcesTimeout();
  }

  @Override
  public long deadlineMillis() {
    return call.deadlineMillis();
  }

  @Override
  public Resp callSync(GrpcClient client, String json, long timeoutMillis) throws Exception {
    return call.callSync(client, parse(json), timeoutMillis);
  }

  private DynamicMessage parse(String json) throws InvalidProtocolBufferException {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(inputType);
    try {
      JsonFormat.parser().merge(json, builder);
    } catch (InvalidProtocolBufferException e) {
      throw GrpcSchemas.unknownField(e, inputType);
    }
    return builder.build();
  }

  /**
   * A method known by its full name and kind only: {@link #prepare} asks the server's reflection
   * service for its schema, then {@code make} makes the call of it.
   */
  record Reflected<Resp>(String fullMethodName, MethodDescriptor.MethodType kind,
                         Function<MethodDescriptor<DynamicMessage, DynamicMessage>,
                             RpcMethod<GrpcClient, DynamicMessage, Resp>> make)
      implements RpcMethod<GrpcClient, String, Resp> {

    @Override
    public RpcMethod<GrpcClient, String, Resp> prepare(GrpcClient client) {
      MethodDescriptor<DynamicMessage, DynamicMessage> method =
          GrpcSchemas.fromReflection(client.channel(), fullMethodName, kind, client.timeoutMillis());
      return of(method, make.apply(method));
    }

    @Override
    public CompletionStage<Resp> callAsync(GrpcClient client, String json) {
      throw new IllegalStateException(fullMethodName + " was called before its schema was fetched");
    }
  }
}
