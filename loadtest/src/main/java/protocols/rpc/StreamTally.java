package protocols.rpc;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * One stream's per-message figures as its messages go and come, for any framework's stream call:
 * sends (timed when the stream echoes), replies (time to the first, gaps, round trips, the echo
 * check), and what its kind promises at the end. Not thread-safe: its caller serialises the calls.
 */
public final class StreamTally {
  /** What a stream sends and receives. */
  public enum Kind {
    /** One request, many replies. */
    SERVER,
    /** Many messages, one reply. */
    CLIENT,
    /** Many messages, a reply to each. */
    BIDI
  }

  /**
   * Bytes of messages a bidirectional stream leaves unanswered at most: grpc-java's own threshold for
   * a ready stream (32 KiB). The same rule on every framework, so their round trips mean the same.
   */
  public static final int WINDOW_BYTES = 32 * 1024;

  private final StreamPlan plan;
  private final Kind kind;
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

  /**
   * @param method the method's name, for the KO messages
   * @param message what the stream sends, which each reply must equal when the plan says echoed
   * @param messageBytes its size on the wire, which sets how many may go unanswered
   */
  public StreamTally(StreamPlan plan, String method, Object message, int messageBytes) {
    this.plan = plan;
    this.kind = plan.kind();
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
    if (kind == Kind.BIDI) {
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
   * False while a bidirectional stream has its window of messages unanswered (wait for a reply), or a
   * paced stream's next message is not due yet (wait {@link #nanosUntilDue()}).
   */
  public boolean mayPipeline() {
    return inFlight.size() < window && nanosUntilDue() <= 0;
  }

  /** How long until the next message is due; 0 or less when it is (always, unpaced). */
  public long nanosUntilDue() {
    return plan.paced() && !allSent() ? startNanos + plan.dueNanos(sent) - System.nanoTime() : 0;
  }

  /** A reply came; false if it breaks the stream (an echo that differs): cancel it then. */
  public boolean received(Object reply) {
    long now = System.nanoTime();
    received++;
    if (firstMicros < 0) {
      firstMicros = (now - startNanos) / 1_000;
    } else {
      gaps.recordValue(Math.max(0, (now - lastNanos) / 1_000));
    }
    lastNanos = now;
    if (kind == Kind.BIDI) {
      Long sentAt = inFlight.poll();
      if (sentAt != null) {
        roundTrips.recordValue(Math.max(0, (now - sentAt) / 1_000));
      }
      if (plan.echoed() && broken == null && !message.equals(reply)) {
        broken = method + ": echo " + received + " differs from the message sent";
        return false;
      }
    }
    return true;
  }

  /** Why the stream broke, or null. */
  public String broken() {
    return broken;
  }

  /**
   * Completes {@code done} as the stream ended: with {@code error} (null when it ended OK), with
   * {@link StreamBroken} if it broke or ended OK without what its kind promises, else with its result;
   * a failure carries what the stream did before it ({@link StreamResult.Failed}).
   */
  public void ended(Throwable error, CompletableFuture<StreamResult> done) {
    Throwable failure = broken != null ? new StreamBroken(broken) : error != null ? error
        : kind == Kind.CLIENT && received != 1 ? new StreamBroken(method + ": " + received + " replies to a client stream")
        : kind == Kind.BIDI && received != sent ? new StreamBroken(method + ": " + received + " replies to " + sent
        + " messages") : null;
    StreamResult result = new StreamResult(sent, received, firstMicros, gaps, roundTrips, sendLags);
    if (failure == null) {
      done.complete(result);
    } else {
      done.completeExceptionally(new StreamResult.Failed(failure, result)); // its messages still count
    }
  }

  /** A stream that ended OK but not as its kind promises (an echo that differs, a reply missing). */
  public static final class StreamBroken extends RuntimeException {
    StreamBroken(String message) {
      super(message, null, false, false);
    }
  }
}
