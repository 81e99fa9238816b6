package protocols.dubbo;

import com.google.protobuf.MessageLite;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import io.gatling.core.session.Session;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.rpc.StatusRpcException;
import org.apache.dubbo.rpc.TriRpcStatus;
import org.apache.dubbo.rpc.protocol.tri.CancelableStreamObserver;
import org.apache.dubbo.rpc.protocol.tri.observer.ClientCallToObserverAdapter;
import protocols.rpc.RpcMethod;
import protocols.rpc.StreamPlan;
import protocols.rpc.StreamResult;
import protocols.rpc.StreamTally;

/**
 * A streaming method of a generated Triple interface, called as one exchange, as {@code GrpcStream}
 * calls grpc-java's: a server stream sends its request and reads every message; a client stream sends
 * {@code messages} copies of its payload and reads the one reply; a bidirectional stream sends them
 * and reads its replies, by default one per message, timing each round trip. Dubbo's client asks for
 * one message at a time, as it handles them. Its request observer has no readiness signal: a stream
 * that answers each message sends while its unanswered messages fit {@link StreamTally#WINDOW_BYTES},
 * other streams all their messages at once (Dubbo buffers them). Dubbo sets no deadline on a stream: its {@code deadline},
 * else the core's timeout, cancels it. Immutable.
 */
final class TripleStream<S, Req, Resp> implements RpcMethod<DubboClient, Req, StreamResult> {
  private final DubboService<S> service;
  private final String name;
  private final StreamTally.Kind kind;
  private final ServerStream<S, Req, Resp> serverStream;
  private final Opening<S, Req, Resp> opening;
  private final StreamPlan plan;
  /** The whole stream's deadline, or 0 for the run's timeout (the core's). */
  private final long deadlineMillis;
  private final S proxy;
  /** The user's session, when the plan needs it: its reply checks, its event loop as a paced stream's clock. */
  private final Session session;

  TripleStream(DubboService<S> service, String name, ServerStream<S, Req, Resp> serverStream,
               Opening<S, Req, Resp> opening, StreamPlan plan, long deadlineMillis, S proxy,
               Session session) {
    this.service = service;
    this.name = name;
    this.kind = plan.kind();
    this.serverStream = serverStream;
    this.opening = opening;
    this.plan = plan;
    this.deadlineMillis = deadlineMillis;
    this.proxy = proxy;
    this.session = session;
  }

  @Override
  public RpcMethod<DubboClient, Req, StreamResult> prepare(DubboClient client) {
    return new TripleStream<>(service, name, serverStream, opening, plan, deadlineMillis, service.proxy(client), session);
  }

  @Override
  public RpcMethod<DubboClient, Req, StreamResult> bind(Session session) {
    return plan.needsSession()
        ? new TripleStream<>(service, name, serverStream, opening, plan, deadlineMillis, proxy, session)
        : this;
  }

  @Override
  public boolean enforcesTimeout() {
    return deadlineMillis > 0; // its own deadline; else the core's timer, at the run's timeout
  }

  @Override
  public long deadlineMillis() {
    return deadlineMillis;
  }

  @Override
  public CompletionStage<StreamResult> callAsync(DubboClient client, Req request) {
    if (plan.needsSession() && session == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("a paced or checked stream is bound to a "
          + "session first"));
    }
    return new Exchange<>(this, request).start();
  }

  /** A server-streaming method of the interface, e.g. {@code MobileService::watch}. */
  @FunctionalInterface
  public interface ServerStream<S, Req, Resp> {
    void call(S service, Req request, StreamObserver<Resp> replies);
  }

  /** A client-streaming or bidirectional method, e.g. {@code MobileService::chat}: it returns the sender. */
  @FunctionalInterface
  public interface Opening<S, Req, Resp> {
    StreamObserver<Req> open(S service, StreamObserver<Resp> replies);
  }

  /** One stream: Dubbo calls this observer with its replies, one at a time. */
  private static final class Exchange<S, Req, Resp> extends CancelableStreamObserver<Resp> {
    private final TripleStream<S, Req, Resp> stream;
    private final Req message;
    private final StreamTally tally;
    private final CompletableFuture<StreamResult> done = new CompletableFuture<>();
    private ClientCallToObserverAdapter<Resp> call;
    private StreamObserver<Req> sender;
    private boolean halfClosed;
    private boolean ended;
    private boolean timerSet;

    Exchange(TripleStream<S, Req, Resp> stream, Req message) {
      this.stream = stream;
      this.message = message;
      this.tally = new StreamTally(stream.plan, stream.name, message,
          message instanceof MessageLite m ? m.getSerializedSize() : 0, stream.session);
    }

    synchronized CompletableFuture<StreamResult> start() {
      try {
        tally.started();
        if (stream.kind == StreamTally.Kind.SERVER) {
          tally.sending();
          stream.serverStream.call(stream.proxy, message, this);
        } else {
          sender = stream.opening.open(stream.proxy, this);
          pump();
        }
      } catch (RuntimeException | Error e) {
        abort(e);
        end(e);
      }
      if (stream.deadlineMillis > 0) {
        // orTimeout drops its timer when the stream ends first: nothing waits 30 s per finished stream.
        CompletableFuture<Void> deadline = new CompletableFuture<>();
        deadline.orTimeout(stream.deadlineMillis, TimeUnit.MILLISECONDS).whenComplete((v, late) -> {
          if (late != null) {
            done.completeExceptionally(new StatusRpcException(TriRpcStatus.DEADLINE_EXCEEDED.withDescription(
                "the stream's deadline of " + stream.deadlineMillis + " ms")));
          }
        });
        done.whenComplete((r, e) -> deadline.complete(null));
      }
      // A deadline, or the core's timeout cancelling the future: cancel the stream, so the server stops too.
      done.whenComplete((r, e) -> {
        if (e instanceof CancellationException || e instanceof StatusRpcException) {
          stopUnlessEnded(e);
        }
      });
      return done;
    }

    @Override
    public void beforeStart(ClientCallToObserverAdapter<Resp> adapter) {
      call = adapter;
    }

    /** Sends while the window has room and the next message is due; half-closes after the last. */
    private synchronized void pump() {
      while (!tally.allSent() && tally.mayPipeline() && tally.broken() == null && !ended) {
        tally.sending();
        sender.onNext(message);
      }
      if (tally.allSent() && !halfClosed && !ended) {
        halfClosed = true;
        sender.onCompleted();
      }
      long wait = tally.nanosUntilDue();
      if (wait > 0 && !timerSet && !ended) {
        timerSet = true;
        stream.session.eventLoop().schedule(this::onTimer, wait, TimeUnit.NANOSECONDS);
      }
    }

    private synchronized void onTimer() {
      timerSet = false;
      pump();
    }

    @Override
    public synchronized void onNext(Resp reply) {
      if (ended) {
        return;
      }
      if (!tally.received(reply)) {
        abort(new IllegalStateException(tally.broken()));
        end(null);
        return;
      }
      if (stream.kind == StreamTally.Kind.BIDI) {
        pump(); // a reply frees a place in the window
      }
    }

    @Override
    public synchronized void onError(Throwable error) {
      end(error);
    }

    @Override
    public synchronized void onCompleted() {
      end(null);
    }

    private void end(Throwable error) {
      if (!ended) {
        ended = true;
        tally.ended(error, done);
      }
    }

    /** The future was completed from outside (a deadline, a timeout): the stream stops here. */
    private synchronized void stopUnlessEnded(Throwable why) {
      if (!ended) {
        ended = true;
        abort(why);
      }
    }

    private void abort(Throwable why) {
      ClientCallToObserverAdapter<Resp> c = call;
      if (c != null) {
        c.cancel(why);
      }
    }
  }
}
