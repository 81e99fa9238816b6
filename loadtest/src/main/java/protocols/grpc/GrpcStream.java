package protocols.grpc;

import io.gatling.core.session.Session;
import com.google.protobuf.MessageLite;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import protocols.rpc.RpcMethod;
import protocols.rpc.StreamPlan;
import protocols.rpc.StreamResult;
import protocols.rpc.StreamTally;

/**
 * One streaming gRPC method, called as one exchange: a server stream sends its request and reads
 * every message; a client stream sends {@code messages} copies of its payload and reads the one reply;
 * a bidirectional stream sends them and reads its replies, by default one per message, timing each round
 * trip (and, {@code echoed}, checking each reply equals what was sent). Flow control both ways: it sends
 * only while the transport is ready (a server that stops reading stops this sender, not grows its buffers)
 * and, on a stream that answers each message, while its unanswered messages fit
 * {@link StreamTally#WINDOW_BYTES}; it asks
 * for the next message once it has handled one. A paced plan also waits for each message's due time, on
 * the user's event loop. The stream's deadline is the request's, else the run's timeout. Immutable.
 */
final class GrpcStream<Req, Resp> implements RpcMethod<GrpcClient, Req, StreamResult> {
  private final MethodDescriptor<Req, Resp> method;
  private final StreamPlan plan;
  private final GrpcCall.Options options;
  private final Metadata resolved;
  /** The user's session, when the plan needs it: its reply checks, its event loop as a paced stream's clock. */
  private final Session session;

  GrpcStream(MethodDescriptor<Req, Resp> method, StreamPlan plan, GrpcCall.Options options, Metadata resolved,
             Session session) {
    this.method = method;
    this.plan = plan;
    this.options = options;
    this.resolved = resolved;
    this.session = session;
  }

  MethodDescriptor<Req, Resp> method() {
    return method;
  }

  @Override
  public CompletionStage<StreamResult> callAsync(GrpcClient client, Req request) {
    if (plan.needsSession() && session == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("a paced or checked stream is bound to a "
          + "session first"));
    }
    return new Exchange<>(client, method, request, plan, options.deadlineMillis(), resolved, session).start();
  }

  @Override
  public boolean enforcesTimeout() {
    return true; // every stream carries a gRPC deadline: its own (for the whole stream), else the run's timeout
  }

  @Override
  public long deadlineMillis() {
    return options.deadlineMillis();
  }

  @Override
  public RpcMethod<GrpcClient, Req, StreamResult> bind(Session session) {
    Metadata headers = options.resolve(session);
    return headers == null && !plan.needsSession() ? this
        : new GrpcStream<>(method, plan, options, headers, plan.needsSession() ? session : null);
  }

  /** One stream: its listener, its sender. The transport runs the listener's methods one at a time. */
  private static final class Exchange<Req, Resp> extends ClientCall.Listener<Resp> {
    private final GrpcClient client;
    private final MethodDescriptor.MethodType type;
    private final Req message;
    private final long deadlineMillis;
    private final Metadata headers;
    private final StreamTally tally;
    private final ScheduledExecutorService timer;
    private final CompletableFuture<StreamResult> done = new CompletableFuture<>();
    private final MethodDescriptor<Req, Resp> method;
    private GrpcClient.StreamCall<Req, Resp> stream;
    private boolean halfClosed;
    private boolean closed;
    private boolean timerSet;

    Exchange(GrpcClient client, MethodDescriptor<Req, Resp> method, Req message, StreamPlan plan,
             long deadlineMillis, Metadata headers, Session session) {
      this.client = client;
      this.type = method.getType();
      this.message = message;
      this.deadlineMillis = deadlineMillis;
      this.headers = headers;
      this.method = method;
      this.timer = session == null ? null : session.eventLoop();
      this.tally = new StreamTally(plan, method.getBareMethodName(), message,
          message instanceof MessageLite m ? m.getSerializedSize() : 0, session);
    }

    CompletableFuture<StreamResult> start() {
      try {
        stream = client.newStreamCall(method, deadlineMillis);
        tally.started();
        stream.call().start(this, headers == null ? new Metadata() : headers);
        // One message asked for at a time: the next once this one is handled (a client stream's one reply, and a spare).
        stream.call().request(type == MethodDescriptor.MethodType.CLIENT_STREAMING ? 2 : 1);
        if (type == MethodDescriptor.MethodType.SERVER_STREAMING) {
          // grpc-java calls no onReady on a call whose client sends one message: send it now, as a unary call does.
          synchronized (this) {
            tally.sending();
            halfClosed = true;
          }
          stream.call().sendMessage(message);
          stream.call().halfClose();
        } else {
          pump();
        }
      } catch (RuntimeException | Error e) {
        if (stream != null) {
          stream.call().cancel("could not send", e);
        }
        done.completeExceptionally(e);
      }
      return done;
    }

    @Override
    public void onReady() {
      pump();
    }

    /** Sends while the transport takes more and the next message is due; half-closes after the last. */
    private synchronized void pump() {
      if (closed) {
        return;
      }
      ClientCall<Req, Resp> call = stream.call();
      while (!tally.allSent() && call.isReady() && tally.mayPipeline() && tally.broken() == null) {
        tally.sending();
        call.sendMessage(message);
      }
      if (tally.allSent() && !halfClosed) {
        halfClosed = true;
        call.halfClose();
      }
      long wait = tally.nanosUntilDue();
      if (wait > 0 && !timerSet) {
        timerSet = true;
        timer.schedule(this::onTimer, wait, TimeUnit.NANOSECONDS);
      }
    }

    private synchronized void onTimer() {
      timerSet = false;
      pump();
    }

    @Override
    public synchronized void onMessage(Resp reply) {
      if (!tally.received(reply)) {
        stream.call().cancel(tally.broken(), null);
        return;
      }
      if (type != MethodDescriptor.MethodType.CLIENT_STREAMING) {
        stream.call().request(1);
      }
      if (type == MethodDescriptor.MethodType.BIDI_STREAMING) {
        pump(); // a reply frees a place in the window
      }
    }

    @Override
    public synchronized void onClose(Status status, Metadata trailers) {
      closed = true;
      Throwable error = null;
      if (!status.isOk() && tally.broken() == null) {
        error = status.asRuntimeException(trailers);
        client.reconnectSoon(stream.channel(), error);
      }
      tally.ended(error, done);
    }
  }
}
