package protocols.rpc;

import io.gatling.core.session.Session;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * One stream's per-message figures as its messages go and come, for any framework's stream call:
 * sends (timed when each message gets its reply), replies (time to the first, gaps, round trips, the
 * echo check, the reply checks), and the replies its plan promises at the end. Not thread-safe: its
 * caller serialises the calls.
 */
public final class StreamTally {
  /** What a stream sends and receives. */
  public enum Kind {
    /** One request, many replies. */
    SERVER,
    /** Many messages, one reply. */
    CLIENT,
    /** Many messages, many replies: by default a reply to each. */
    BIDI
  }

  /**
   * Bytes of messages a bidirectional stream leaves unanswered at most: grpc-java's own threshold for
   * a ready stream (32 KiB). The same rule on every framework, so their round trips mean the same.
   */
  public static final int WINDOW_BYTES = 32 * 1024;

  private final StreamPlan plan;
  private final boolean answersEach;
  private final int window;
  private final String method;
  private final Object message;
  private final Histogram gaps = StreamResult.histogram();
  private final Histogram roundTrips = StreamResult.histogram();
  private final Histogram sendLags = StreamResult.histogram();
  /** Send times of the messages not yet answered: bounded by what the sender lets out. */
  private final ArrayDeque<Long> inFlight = new ArrayDeque<>();
  private long startNanos;
  private long lastNanos;
  private long firstMicros = -1;
  private int sent;
  private long received;
  private String broken;
  /** The session the reply checks run with, and save into; null without reply checks. */
  private Session session;

  /** A stream without reply checks. */
  public StreamTally(StreamPlan plan, String method, Object message, int messageBytes) {
    this(plan, method, message, messageBytes, null);
  }

  /**
   * @param method the method's name, for the KO messages
   * @param message what the stream sends, which each reply must equal when the plan says echoed
   * @param messageBytes its size on the wire, which sets how many may go unanswered
   * @param session the user's session, for the plan's reply checks (null without them)
   */
  public StreamTally(StreamPlan plan, String method, Object message, int messageBytes, Session session) {
    if (!plan.replyChecks().isEmpty() && session == null) {
      throw new IllegalStateException("a stream with reply checks is bound to a session first");
    }
    this.plan = plan;
    this.answersEach = plan.answersEachMessage();
    this.session = session;
    this.window = Math.max(1, WINDOW_BYTES / Math.max(1, messageBytes));
    this.method = method;
    this.message = message;
  }

  /** The stream opens now: its first message's time counts from here. */
  public void started() {
    startNanos = System.nanoTime();
  }

  /**
   * A message is about to be sent. A paced one's round trip counts from when it was due, and how late
   * it goes out is its send lag: waiting for flow control or the window is the server's time too.
   */
  public void sending() {
    long now = System.nanoTime();
    long from = now;
    if (plan.paced()) {
      from = startNanos + plan.dueNanos(sent);
      sendLags.recordValue(Math.max(0, (now - from) / 1_000));
    }
    if (answersEach) {
      inFlight.add(from);
    }
    sent++;
  }

  public int sent() {
    return sent;
  }

  /** True once every message is sent. */
  public boolean allSent() {
    return sent >= plan.toSend();
  }

  /**
   * False while a stream that answers each message has its window of messages unanswered (wait for a
   * reply), or a paced stream's next message is not due yet (wait {@link #nanosUntilDue()}). Other
   * shapes have no window: only the transport's flow control holds them back.
   */
  public boolean mayPipeline() {
    return inFlight.size() < window && nanosUntilDue() <= 0;
  }

  /** How long until the next message is due; 0 or less when it is (always, unpaced). */
  public long nanosUntilDue() {
    return plan.paced() && !allSent() ? startNanos + plan.dueNanos(sent) - System.nanoTime() : 0;
  }

  /**
   * A reply came; false if it breaks the stream (an echo that differs, a reply check that fails, one
   * reply more than an exact count): cancel it then.
   */
  public boolean received(Object reply) {
    long now = System.nanoTime();
    received++;
    if (firstMicros < 0) {
      firstMicros = (now - startNanos) / 1_000;
    } else {
      gaps.recordValue(Math.max(0, (now - lastNanos) / 1_000));
    }
    lastNanos = now;
    if (broken != null) {
      return false;
    }
    if (plan.replies().exceeded(received)) {
      broken = method + ": reply " + received + " came, expected " + plan.replies();
      return false;
    }
    if (answersEach) {
      Long sentAt = inFlight.poll();
      if (sentAt != null) {
        roundTrips.recordValue(Math.max(0, (now - sentAt) / 1_000));
      }
      if (plan.echoed() && !message.equals(reply)) {
        broken = method + ": echo " + received + " differs from the message sent";
        return false;
      }
    }
    return plan.replyChecks().isEmpty() || check(reply);
  }

  /** The reply checks, on the session as the last reply's checks left it, with this reply's index. */
  private boolean check(Object reply) {
    long index = received - 1;
    Session s = session.set(StreamPlan.REPLY_INDEX, index);
    for (RpcCheck<Object, Object> c : plan.replyChecks()) {
      RpcCheck.Result r;
      try {
        r = c.check(message, reply, RpcCheck.OK, s);
      } catch (RuntimeException | LinkageError | AssertionError e) {
        r = RpcCheck.Result.fail("check threw: " + Errors.oneLine(e)); // a user's check must not strand the stream
      }
      if (r.failure() != null) {
        broken = method + ": reply " + index + ": " + r.failure();
        return false;
      }
      s = r.session();
    }
    session = s;
    return true;
  }

  /** Why the stream broke, or null. */
  public String broken() {
    return broken;
  }

  /**
   * Completes {@code done} as the stream ended: with {@code error} (null when it ended OK), with
   * {@link StreamBroken} if it broke or ended OK without the replies its plan promises, else with its result;
   * a failure carries what the stream did before it ({@link StreamResult.Failed}).
   */
  public void ended(Throwable error, CompletableFuture<StreamResult> done) {
    String shortfall = plan.replies().shortfall(method, received, sent);
    Throwable failure = broken != null ? new StreamBroken(broken) : error != null ? error
        : shortfall != null ? new StreamBroken(shortfall) : null;
    StreamResult result = new StreamResult(sent, received, firstMicros, gaps, roundTrips, sendLags,
        plan.replyChecks().isEmpty() ? null : session.remove(StreamPlan.REPLY_INDEX));
    if (failure == null) {
      done.complete(result);
    } else {
      done.completeExceptionally(new StreamResult.Failed(failure, result)); // its messages still count
    }
  }

  /** A stream that ended OK but not as its plan promises (an echo that differs, a reply missing, a check failed). */
  public static final class StreamBroken extends RuntimeException {
    StreamBroken(String message) {
      super(message, null, false, false);
    }
  }
}
