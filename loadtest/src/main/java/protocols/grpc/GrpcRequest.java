package protocols.grpc;

import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.function.Function;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;

/**
 * A unary gRPC request: {@code grpc("name").unary(SomeServiceGrpc.getSomeMethod()).header("k", "#{v}")
 * .deadline(Duration.ofMillis(200)).send(...)}. Immutable.
 */
public final class GrpcRequest<Req, Resp> extends RpcRequest<GrpcClient, Req, Resp> {
  private final GrpcCall.Options options;
  private final Function<GrpcCall.Options, RpcMethod<GrpcClient, Req, Resp>> method;

  private GrpcRequest(String name, GrpcCall.Options options,
                      Function<GrpcCall.Options, RpcMethod<GrpcClient, Req, Resp>> method) {
    super(GrpcProtocol.KEY, name);
    this.options = options;
    this.method = method;
  }

  /** A method of the user's generated code. */
  static <Req, Resp> GrpcRequest<Req, Resp> unary(String name, MethodDescriptor<Req, Resp> method) {
    if (method.getType() != MethodDescriptor.MethodType.UNARY) {
      throw new IllegalArgumentException(method.getFullMethodName() + " is " + method.getType() + ", not unary");
    }
    return new GrpcRequest<>(name, GrpcCall.Options.NONE, options -> new GrpcCall<>(method, options));
  }

  /** A metadata header sent with every call; the value may hold Gatling EL ({@code "Bearer #{token}"}). */
  public GrpcRequest<Req, Resp> header(String name, String valueExpression) {
    return new GrpcRequest<>(name(), options.header(name, valueExpression), method);
  }

  /** The call's gRPC deadline (default: the protocol's timeout); DEADLINE_EXCEEDED is reported as a timeout. */
  public GrpcRequest<Req, Resp> deadline(Duration deadline) {
    return new GrpcRequest<>(name(), options.deadline(deadline), method);
  }

  @Override
  protected RpcMethod<GrpcClient, Req, Resp> method() {
    return method.apply(options);
  }

  /**
   * A method named by its full name, {@code package.Service/Method}, without generated code: its
   * schema comes from a descriptor set or the server's reflection service, its payload is JSON
   * (protobuf's JSON mapping, Gatling EL allowed) and its reply a {@code DynamicMessage}.
   */
  public static final class Dynamic {
    private final String name;
    private final String fullMethodName;

    Dynamic(String name, String fullMethodName) {
      this.name = name;
      this.fullMethodName = GrpcSchemas.checkFullName(fullMethodName);
    }

    /**
     * The schema from a file {@code protoc --descriptor_set_out=FILE --include_imports} wrote (a path, or
     * {@code classpath:name} for a resource), read now.
     */
    public GrpcRequest<String, com.google.protobuf.DynamicMessage> fromDescriptorSet(String file) {
      MethodDescriptor<com.google.protobuf.DynamicMessage, com.google.protobuf.DynamicMessage> m =
          GrpcSchemas.fromDescriptorSet(file, fullMethodName, MethodDescriptor.MethodType.UNARY);
      return new GrpcRequest<>(name, GrpcCall.Options.NONE, options -> GrpcJsonCall.of(m, new GrpcCall<>(m, options)));
    }

    /** The schema from the server's reflection service, asked once when the run starts. */
    public GrpcRequest<String, com.google.protobuf.DynamicMessage> fromReflection() {
      return new GrpcRequest<>(name, GrpcCall.Options.NONE, options -> new GrpcJsonCall.Reflected<>(fullMethodName,
          MethodDescriptor.MethodType.UNARY, m -> new GrpcCall<>(m, options)));
    }
  }
}
