package protocols.grpc;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import protocols.rpc.RpcChecks;
import protocols.rpc.RpcSettings;
import protocols.rpc.RpcMethod;

/**
 * The gRPC DSL: {@code grpc} is the protocol; {@code grpc("name").unary(SomeServiceGrpc.getSomeMethod())}
 * calls a method of your generated code, {@code grpc("name").unary("pkg.Service/Method").fromReflection()}
 * one without; {@code serverStream}, {@code clientStream} and {@code bidiStream} open one stream per call.
 */
public final class GrpcDsl {
  /** The protocol builder, with gRPC's defaults (127.0.0.1:50051, one channel, async). */
  public static final GrpcProtocol grpc = new GrpcProtocol(RpcSettings.defaults(50051));

  private GrpcDsl() {}

  /** A request named {@code name} (Gatling EL allowed); then say which method. */
  public static Named grpc(String name) {
    return () -> name;
  }

  /** A named gRPC request waiting for its method. */
  @FunctionalInterface
  public interface Named {
    String name();

    /** A unary method of your generated code, e.g. {@code SomeServiceGrpc.getSomeMethod()}. */
    default <Req, Resp> GrpcRequest<Req, Resp> unary(MethodDescriptor<Req, Resp> method) {
      return GrpcRequest.unary(name(), method);
    }

    /** A server-streaming method of your generated code: one request, every message read. */
    default <Req, Resp> GrpcStreamRequest<Req, Resp> serverStream(MethodDescriptor<Req, Resp> method) {
      return GrpcStreamRequest.of(name(), method, MethodDescriptor.MethodType.SERVER_STREAMING);
    }

    /** A client-streaming method of your generated code: {@code .messages(n)} sent, one reply read. */
    default <Req, Resp> GrpcStreamRequest<Req, Resp> clientStream(MethodDescriptor<Req, Resp> method) {
      return GrpcStreamRequest.of(name(), method, MethodDescriptor.MethodType.CLIENT_STREAMING);
    }

    /**
     * A bidirectional method of your generated code that echoes each message: {@code .messages(n)}
     * sent, each echo checked and its round trip timed.
     */
    default <Req, Resp> GrpcStreamRequest<Req, Resp> bidiStream(MethodDescriptor<Req, Resp> method) {
      return GrpcStreamRequest.of(name(), method, MethodDescriptor.MethodType.BIDI_STREAMING);
    }

    /** A unary method without generated code, by its full name {@code package.Service/Method}. */
    default GrpcRequest.Dynamic unary(String fullMethodName) {
      return new GrpcRequest.Dynamic(name(), fullMethodName);
    }

    /** A server-streaming method without generated code, by its full name; its request is JSON. */
    default GrpcStreamRequest.Dynamic serverStream(String fullMethodName) {
      return new GrpcStreamRequest.Dynamic(name(), fullMethodName, MethodDescriptor.MethodType.SERVER_STREAMING);
    }

    /** A client-streaming method without generated code, by its full name; its messages are JSON. */
    default GrpcStreamRequest.Dynamic clientStream(String fullMethodName) {
      return new GrpcStreamRequest.Dynamic(name(), fullMethodName, MethodDescriptor.MethodType.CLIENT_STREAMING);
    }

    /** A bidirectional method without generated code, by its full name; its messages are JSON. */
    default GrpcStreamRequest.Dynamic bidiStream(String fullMethodName) {
      return new GrpcStreamRequest.Dynamic(name(), fullMethodName, MethodDescriptor.MethodType.BIDI_STREAMING);
    }
  }

  /** A check on the call's gRPC status: {@code statusCode(Status.Code.NOT_FOUND)} makes that error an OK. */
  public static RpcChecks.ValueCheck<Object, String> statusCode(Status.Code expected) {
    return RpcChecks.code().is(expected == Status.Code.OK ? RpcChecks.OK : "grpc " + expected);
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return SampleOrder.make(GrpcOrder::of, orderId, name);
  }
}
