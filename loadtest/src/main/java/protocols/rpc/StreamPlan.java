package protocols.rpc;

import java.util.concurrent.TimeUnit;

/**
 * What each stream of a request sends: its kind, how many messages (a client or bidirectional stream's
 * payload, that many times), whether each reply must echo the message it answers, and at what rate
 * (0: as fast as flow control lets it). The DSL of every framework with streams builds one. Immutable.
 */
public record StreamPlan(StreamTally.Kind kind, int messages, boolean echoed, double perSecond) {
  /** The longest gap a rate may leave between two messages, so a due time stays far from overflowing. */
  private static final double MIN_PER_SECOND = 0.001;

  /** One message (a server stream's request), unchecked, unpaced. */
  public static StreamPlan of(StreamTally.Kind kind) {
    return new StreamPlan(kind, 1, false, 0);
  }

  /** {@code count} messages; refused for a server stream, which sends its one request. */
  public StreamPlan messages(String method, int count) {
    if (kind == StreamTally.Kind.SERVER) {
      throw new IllegalArgumentException(method + " is a server stream: it sends one request");
    }
    if (count < 1) {
      throw new IllegalArgumentException("messages must be at least 1, got " + count);
    }
    return new StreamPlan(kind, count, echoed, perSecond);
  }

  /** Each reply must equal the message it answers; only a bidirectional stream echoes. */
  public StreamPlan echoed(String method) {
    if (kind != StreamTally.Kind.BIDI) {
      throw new IllegalArgumentException(method + " is not bidirectional: nothing is echoed");
    }
    return new StreamPlan(kind, messages, true, perSecond);
  }

  /**
   * Message {@code i} is due {@code i / rate} seconds after the stream opens (open-model sends within
   * a stream): a message sent late still counts from when it was due.
   */
  public StreamPlan perSecond(String method, double rate) {
    if (kind == StreamTally.Kind.SERVER) {
      throw new IllegalArgumentException(method + " is a server stream: the server sets its pace");
    }
    if (!(rate >= MIN_PER_SECOND) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("messages per second must be at least " + MIN_PER_SECOND + ", got " + rate);
    }
    return new StreamPlan(kind, messages, echoed, rate);
  }

  public boolean paced() {
    return perSecond > 0;
  }

  /** What the client sends: a server stream's one request, else {@code messages}. */
  public int toSend() {
    return kind == StreamTally.Kind.SERVER ? 1 : messages;
  }

  /** When message {@code index} is due, in ns from the stream's opening. */
  long dueNanos(int index) {
    return (long) (index * (TimeUnit.SECONDS.toNanos(1) / perSecond));
  }
}
