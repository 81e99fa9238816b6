package protocols.grpc;

import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.gatling.core.session.Session;
import io.grpc.MethodDescriptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import protocols.rpc.RpcMethod;
import protocols.rpc.StreamPlan;
import protocols.rpc.StreamResult;

/** A streaming method without generated code: its payload JSON (protobuf's JSON mapping), parsed once per stream. */
record GrpcJsonStream(GrpcStream<DynamicMessage, DynamicMessage> stream)
    implements RpcMethod<GrpcClient, String, StreamResult> {

  @Override
  public RpcMethod<GrpcClient, String, StreamResult> bind(Session session) {
    RpcMethod<GrpcClient, DynamicMessage, StreamResult> bound = stream.bind(session);
    return bound == stream ? this : new GrpcJsonStream((GrpcStream<DynamicMessage, DynamicMessage>) bound);
  }

  @Override
  public CompletionStage<StreamResult> callAsync(GrpcClient client, String json) {
    DynamicMessage message;
    try {
      message = GrpcJsonCall.parse(GrpcSchemas.inputType(stream.method()), json);
    } catch (InvalidProtocolBufferException e) {
      return CompletableFuture.failedFuture(e);
    }
    return stream.callAsync(client, message);
  }

  @Override
  public boolean enforcesTimeout() {
    return stream.enforcesTimeout();
  }

  @Override
  public long deadlineMillis() {
    return stream.deadlineMillis();
  }

  /** A stream known by its full name only: {@link #prepare} asks the server's reflection service for its schema. */
  record Reflected(String fullMethodName, MethodDescriptor.MethodType kind, StreamPlan plan, GrpcCall.Options options)
      implements RpcMethod<GrpcClient, String, StreamResult> {

    @Override
    public RpcMethod<GrpcClient, String, StreamResult> prepare(GrpcClient client) {
      return new GrpcJsonStream(new GrpcStream<>(
          GrpcSchemas.fromReflection(client.channel(), fullMethodName, kind, client.timeoutMillis()), plan, options,
          null, null));
    }

    @Override
    public CompletionStage<StreamResult> callAsync(GrpcClient client, String json) {
      throw new IllegalStateException(fullMethodName + " was called before its schema was fetched");
    }
  }
}
