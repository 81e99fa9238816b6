package protocols.grpc;

import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.gatling.core.session.Session;
import io.grpc.MethodDescriptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import protocols.rpc.RpcMethod;

/** A method without generated code: JSON in (protobuf's JSON mapping), {@code DynamicMessage} out. */
record GrpcJsonCall(GrpcCall<DynamicMessage, DynamicMessage> call) implements RpcMethod<GrpcClient, String, DynamicMessage> {

  @Override
  public RpcMethod<GrpcClient, String, DynamicMessage> bind(Session session) {
    RpcMethod<GrpcClient, DynamicMessage, DynamicMessage> bound = call.bind(session);
    return bound == call ? this : new GrpcJsonCall((GrpcCall<DynamicMessage, DynamicMessage>) bound);
  }

  @Override
  public CompletionStage<DynamicMessage> callAsync(GrpcClient client, String json) {
    DynamicMessage request;
    try {
      request = parse(json);
    } catch (InvalidProtocolBufferException e) {
      return CompletableFuture.failedFuture(e);
    }
    return call.callAsync(client, request);
  }

  @Override
  public void callWithCallback(GrpcClient client, String json,
                               BiConsumer<? super DynamicMessage, ? super Throwable> done) {
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
  public DynamicMessage callSync(GrpcClient client, String json, long timeoutMillis) throws Exception {
    return call.callSync(client, parse(json), timeoutMillis);
  }

  private DynamicMessage parse(String json) throws InvalidProtocolBufferException {
    return parse(call.inputType(), json);
  }

  /** Protobuf's JSON mapping into a message of {@code type}. */
  static DynamicMessage parse(com.google.protobuf.Descriptors.Descriptor type, String json)
      throws InvalidProtocolBufferException {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    JsonFormat.parser().merge(json, builder);
    return builder.build();
  }

  /** A method known by its full name only: {@link #prepare} asks the server's reflection service for its schema. */
  record Reflected(String fullMethodName, GrpcCall.Options options)
      implements RpcMethod<GrpcClient, String, DynamicMessage> {

    @Override
    public RpcMethod<GrpcClient, String, DynamicMessage> prepare(GrpcClient client) {
      return new GrpcJsonCall(new GrpcCall<>(
          GrpcSchemas.fromReflection(client.channel(), fullMethodName, MethodDescriptor.MethodType.UNARY,
              client.timeoutMillis()), options));
    }

    @Override
    public CompletionStage<DynamicMessage> callAsync(GrpcClient client, String json) {
      throw new IllegalStateException(fullMethodName + " was called before its schema was fetched");
    }
  }
}
