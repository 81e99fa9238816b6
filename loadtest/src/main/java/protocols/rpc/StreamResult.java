package protocols.rpc;

import io.gatling.core.session.Session;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * What one stream did, as its call's reply: messages sent and received, the time to its first
 * message, the gaps between the messages it received and, for a stream that echoes what it is sent
 * (a chat), each message's round trip, all in µs. One Gatling record is the whole stream; these are
 * the per-message figures the lab's recorder sums per request.
 */
public final class StreamResult {
  private final long sent;
  private final long received;
  private final long firstMessageMicros;
  private final Histogram gapsMicros;
  private final Histogram roundTripsMicros;
  private final Histogram sendLagsMicros;
  private final Session session;

  /**
   * {@code firstMessageMicros} is -1 when no message came; {@code sendLagsMicros} is empty for a stream
   * not paced; the histograms are owned by this result from now on.
   */
  public StreamResult(long sent, long received, long firstMessageMicros, Histogram gapsMicros,
                      Histogram roundTripsMicros, Histogram sendLagsMicros) {
    this(sent, received, firstMessageMicros, gapsMicros, roundTripsMicros, sendLagsMicros, null);
  }

  /** ... and the session as the stream's reply checks left it (their saved values), null without them. */
  public StreamResult(long sent, long received, long firstMessageMicros, Histogram gapsMicros,
                      Histogram roundTripsMicros, Histogram sendLagsMicros, Session session) {
    this.sent = sent;
    this.received = received;
    this.firstMessageMicros = firstMessageMicros;
    this.gapsMicros = gapsMicros;
    this.roundTripsMicros = roundTripsMicros;
    this.sendLagsMicros = sendLagsMicros;
    this.session = session;
  }

  /**
   * A stream that failed, carrying what it did before it failed. A {@link java.util.concurrent.CompletionException}
   * around the stream's own error, so everything that judges the error (its code, a timeout) unwraps to
   * it as before, while the recorder still counts the failed stream's messages.
   */
  public static final class Failed extends java.util.concurrent.CompletionException {
    private final transient StreamResult partial;

    public Failed(Throwable error, StreamResult partial) {
      super(error);
      this.partial = partial;
    }

    public StreamResult partial() {
      return partial;
    }
  }

  /** What a failed stream did before it failed, found in {@code error}'s causes; null for another error. */
  public static StreamResult partialOf(Throwable error) {
    for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof Failed f) {
        return f.partial();
      }
    }
    return null;
  }

  /**
   * A histogram of µs at 3 significant digits, packed: its memory follows the buckets it uses. A plain
   * one holds about 100 KB per stream once it records seconds: 1,000 open chats took 480 MB of heap.
   */
  public static Histogram histogram() {
    return new PackedHistogram(3);
  }

  /** Messages the client sent on the stream (1 for a server stream: its request). */
  public long sent() {
    return sent;
  }

  /** Messages the client received. */
  public long received() {
    return received;
  }

  /** From the stream's start to its first message received, in µs; -1 if none came. */
  public long firstMessageMicros() {
    return firstMessageMicros;
  }

  /** The gaps between consecutive messages received, µs. */
  public Histogram gapsMicros() {
    return gapsMicros;
  }

  /**
   * Per message echoed, from its send (a paced stream: from when it was due) to its echo, µs; empty for
   * streams that do not echo.
   */
  public Histogram roundTripsMicros() {
    return roundTripsMicros;
  }

  /** A paced stream's messages: how late each went out after it was due, µs; empty unpaced. */
  public Histogram sendLagsMicros() {
    return sendLagsMicros;
  }

  /** The session the stream's reply checks saved into, for the request's checks to go on with; null without them. */
  public Session session() {
    return session;
  }

  @Override
  public String toString() {
    return "stream: " + sent + " sent, " + received + " received";
  }
}
