package protocols.grpc;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.concurrent.CompletionStage;
import protocols.rpc.RpcMethod;
import scala.Function1;

/**
 * One unary gRPC method with its call options: metadata headers (Gatling EL values, resolved per
 * call) and a deadline (default: the run's timeout). Immutable.
 */
final class GrpcCall<Req, Resp> implements RpcMethod<GrpcClient, Req, Resp> {
  private final MethodDescriptor<Req, Resp> method;
  private final Options options;
  private final Metadata resolved;

  GrpcCall(MethodDescriptor<Req, Resp> method, Options options) {
    this(method, options, options.headers.isEmpty() ? null : new Metadata());
  }

  private GrpcCall(MethodDescriptor<Req, Resp> method, Options options, Metadata resolved) {
    this.method = method;
    this.options = options;
    this.resolved = resolved;
  }

  @Override
  public CompletionStage<Resp> callAsync(GrpcClient client, Req request) {
    return client.unary(method, resolved, options.deadlineMillis(), request);
  }

  @Override
  public void callWithCallback(GrpcClient client, Req request, BiConsumer<? super Resp, ? super Throwable> done) {
    client.callbackUnary(method, resolved, options.deadlineMillis(), request, done);
  }

  @Override
  public long deadlineMillis() {
    return options.deadlineMillis();
  }

  @Override
  public boolean enforcesTimeout() {
    return options.deadlineMillis() == 0; // every call's gRPC deadline is then the run's timeout
  }

  @Override
  public Resp callSync(GrpcClient client, Req request, long timeoutMillis) {
    return client.blockingUnary(method, resolved, options.deadlineMillis(), request);
  }

  @Override
  public RpcMethod<GrpcClient, Req, Resp> bind(Session session) {
    return options.headers.isEmpty() ? this : new GrpcCall<>(method, options, options.resolve(session));
  }

  /** Headers and deadline, shared by the generated-code and the dynamic requests. Immutable. */
  static final class Options {
    static final Options NONE = new Options(Map.of(), null);
    private final Map<String, Function1<Session, Validation<String>>> headers;
    private final Duration deadline;

    private Options(Map<String, Function1<Session, Validation<String>>> headers, Duration deadline) {
      this.headers = headers;
      this.deadline = deadline;
    }

    Options header(String name, String valueExpression) {
      Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER); // rejects a bad name (e.g. "-bin", upper case) now
      Map<String, Function1<Session, Validation<String>>> all = new LinkedHashMap<>(headers);
      all.put(name, Expressions.toStringExpression(valueExpression));
      return new Options(Map.copyOf(all), deadline);
    }

    Options deadline(Duration newDeadline) {
      if (newDeadline.isNegative() || newDeadline.isZero()) {
        throw new IllegalArgumentException("deadline must be positive, got " + newDeadline);
      }
      return new Options(headers, newDeadline);
    }

    /** The headers with this session's values; null when there are none. */
    Metadata resolve(Session session) {
      if (headers.isEmpty()) {
        return null;
      }
      Metadata resolved = new Metadata();
      headers.forEach((name, value) -> {
        Validation<String> v = value.apply(session);
        if ((Object) v instanceof Failure f) {
          throw new IllegalArgumentException("header " + name + ": " + f.message());
        }
        resolved.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), ((Success<String>) v).value());
      });
      return resolved;
    }

    long deadlineMillis() {
      return deadline == null ? 0 : deadline.toMillis();
    }
  }
}
