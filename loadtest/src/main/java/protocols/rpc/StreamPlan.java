package protocols.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What each stream of a request sends: its kind, how many messages (a client or bidirectional stream's
 * payload, that many times), how many replies it must get, whether each reply must echo the message it
 * answers, the checks each reply must pass, and at what rate (0: as fast as flow control lets it). The
 * DSL of every framework with streams builds one. Immutable.
 */
public record StreamPlan(StreamTally.Kind kind, int messages, boolean echoed, double perSecond, Replies replies,
                         List<RpcCheck<Object, Object>> replyChecks) {
  /** The longest gap a rate may leave between two messages, so a due time stays far from overflowing. */
  private static final double MIN_PER_SECOND = 0.001;

  /** The session attribute a reply check reads its reply's index from (0 for the first reply). */
  public static final String REPLY_INDEX = "replyIndex";

  public StreamPlan {
    replyChecks = List.copyOf(replyChecks);
  }

  /**
   * How many replies a stream must get by the time the server completes it: one per message sent (a
   * chat that answers each message: its round trips are timed), exactly or at least a number, or any
   * number. Fewer, or more than exactly, is a KO.
   */
  public record Replies(Rule rule, long count) {
    public enum Rule { ONE_PER_MESSAGE, EXACTLY, AT_LEAST, ANY }

    static Replies defaultFor(StreamTally.Kind kind) {
      return switch (kind) {
        case SERVER -> new Replies(Rule.ANY, 0);
        case CLIENT -> new Replies(Rule.EXACTLY, 1);
        case BIDI -> new Replies(Rule.ONE_PER_MESSAGE, 0);
      };
    }

    /** True once {@code received} is more than an exact count allows. */
    boolean exceeded(long received) {
      return rule == Rule.EXACTLY && received > count;
    }

    /** Why a stream that ended with {@code received} replies to {@code sent} messages breaks this, or null. */
    String shortfall(String method, long received, long sent) {
      boolean ok = switch (rule) {
        case ONE_PER_MESSAGE -> received == sent;
        case EXACTLY -> received == count;
        case AT_LEAST -> received >= count;
        case ANY -> true;
      };
      return ok ? null : method + ": " + received + " replies to " + sent + " messages, expected " + this;
    }

    @Override
    public String toString() {
      return switch (rule) {
        case ONE_PER_MESSAGE -> "one per message";
        case EXACTLY -> "exactly " + count;
        case AT_LEAST -> "at least " + count;
        case ANY -> "any number";
      };
    }
  }

  /** One message (a server stream's request), unchecked, unpaced, its kind's replies. */
  public static StreamPlan of(StreamTally.Kind kind) {
    return new StreamPlan(kind, 1, false, 0, Replies.defaultFor(kind), List.of());
  }

  /** {@code count} messages; refused for a server stream, which sends its one request. */
  public StreamPlan messages(String method, int count) {
    if (kind == StreamTally.Kind.SERVER) {
      throw new IllegalArgumentException(method + " is a server stream: it sends one request");
    }
    if (count < 1) {
      throw new IllegalArgumentException("messages must be at least 1, got " + count);
    }
    return new StreamPlan(kind, count, echoed, perSecond, replies, replyChecks);
  }

  /** Each reply must equal the message it answers; only a bidirectional stream answering each message echoes. */
  public StreamPlan echoed(String method) {
    if (kind != StreamTally.Kind.BIDI) {
      throw new IllegalArgumentException(method + " is not bidirectional: nothing is echoed");
    }
    if (replies.rule() != Replies.Rule.ONE_PER_MESSAGE) {
      throw new IllegalArgumentException(method + ": an echo answers each message, but " + replies
          + " replies are expected");
    }
    return new StreamPlan(kind, messages, true, perSecond, replies, replyChecks);
  }

  /** The stream must get exactly {@code count} replies ({@link Replies.Rule#EXACTLY}) or at least that many. */
  public StreamPlan replies(String method, Replies.Rule rule, long count) {
    if (kind == StreamTally.Kind.CLIENT) {
      throw new IllegalArgumentException(method + " is a client stream: it gets one reply");
    }
    if (echoed) {
      throw new IllegalArgumentException(method + " is echoed: it gets one reply per message");
    }
    if (count < 0) {
      throw new IllegalArgumentException("replies must be 0 or more, got " + count);
    }
    return new StreamPlan(kind, messages, false, perSecond, new Replies(rule, count), replyChecks);
  }

  /**
   * Every reply must pass {@code checks}, with its index in the session as {@link #REPLY_INDEX}. A check
   * of a reply type reads the stream's replies, which its request's DSL types as that type or a subtype.
   */
  @SuppressWarnings("unchecked")
  public StreamPlan checkEachReply(List<? extends RpcCheck<Object, ?>> checks) {
    List<RpcCheck<Object, Object>> all = new ArrayList<>(replyChecks);
    checks.forEach(c -> all.add((RpcCheck<Object, Object>) c));
    return new StreamPlan(kind, messages, echoed, perSecond, replies, all);
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
    return new StreamPlan(kind, messages, echoed, rate, replies, replyChecks);
  }

  public boolean paced() {
    return perSecond > 0;
  }

  /** Whether the stream needs its user's session: its clock (paced) or its reply checks. */
  public boolean needsSession() {
    return paced() || !replyChecks.isEmpty();
  }

  /** Whether each message gets its own reply: the window counts them and their round trips are timed. */
  boolean answersEachMessage() {
    return kind == StreamTally.Kind.BIDI && replies.rule() == Replies.Rule.ONE_PER_MESSAGE;
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
