package protocols.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Microsecond latency per request name. Gatling keeps whole milliseconds, and these echo calls take
 * 50-200 µs, so every Gatling percentile would read 0 ms; this records what Gatling cannot, plus what
 * a reader needs to trust a level: completions per 1-second window and the KO reasons.
 * Thread-safe, and without contention: calls complete on several event loops at once.
 */
public final class LatencyRecorder {

  /** Distinct KO messages kept per request; further ones are counted under {@link #OTHER_KO}. */
  static final int MAX_KO_REASONS = 20;
  static final String OTHER_KO = "(other messages)";
  static final int MAX_KO_REASON_CHARS = 300;

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  /** What each request name is, as its namer said ({@link #describe}). */
  private final Map<String, Level> levels = new ConcurrentHashMap<>();
  private final AtomicLong order = new AtomicLong();

  /** Records one completed call; latency counts only for OK calls, KOs are counted apart. */
  public void record(String requestName, long startNanos, long endNanos, boolean ok) {
    record(requestName, startNanos, endNanos, ok ? null : "KO");
  }

  /** Records one completed call: OK when {@code koReason} is null, else a KO with that message (cut at 300 chars). */
  public void record(String requestName, long startNanos, long endNanos, String koReason) {
    series(requestName).record(startNanos, startNanos, endNanos, cut(koReason), false);
  }

  /**
   * A call of {@code requestName} starts now, at {@code startNanos}: the first one starts the level's
   * clock (its 1-second windows and its sending span), whichever call completes first.
   */
  public void started(String requestName, long startNanos) {
    series(requestName).begin(startNanos);
  }

  /** A KO message cut at 300 chars: Dubbo puts its whole URL in each message; the start says what happened. */
  private static String cut(String koReason) {
    return koReason != null && koReason.length() > MAX_KO_REASON_CHARS
        ? koReason.substring(0, MAX_KO_REASON_CHARS) + "…" : koReason;
  }

  /**
   * Records one call of an open-model level: sent at {@code startNanos}, due by the schedule at
   * {@code intendedNanos}. Besides the service time (sent to reply) it records the response time
   * (due to reply) and the send lag (due to sent).
   */
  public void recordOpen(String requestName, long intendedNanos, long startNanos, long endNanos, String koReason) {
    series(requestName).record(intendedNanos, startNanos, endNanos, cut(koReason), true);
  }

  /**
   * A call of an open-model level that was due at {@code dueNanos} but not sent: the cap on calls in
   * flight was reached. It counts in the level's sending span, as a due call.
   */
  public void recordDropped(String requestName, long dueNanos) {
    Series s = series(requestName);
    Shard shard = s.mine.get();
    shard.dropped.lazySet(shard.dropped.get() + 1);
    shard.due(dueNanos);
  }

  /**
   * {@code calls} of an open-model level that were due but will never be sent: the sender that had
   * them stopped ({@code reason}). Counted, so the level says it offered less than its rate.
   */
  public void recordUnsent(String requestName, long calls, String reason) {
    Series s = series(requestName);
    s.unsent.add(calls);
    if (s.unsentReason == null) {
      s.unsentReason = reason;
    }
  }

  /**
   * Declares {@code requestName} an open-model level offered {@code callsPerSecond}, at most
   * {@code maxInFlight} in flight, whose schedule starts at {@code startNanos} (its clock's start).
   */
  public void declareOpen(String requestName, double callsPerSecond, int maxInFlight, long startNanos) {
    Series s = series(requestName);
    s.offered = callsPerSecond;
    s.maxInFlight = maxInFlight;
    s.begin(startNanos);
  }

  /**
   * The series of {@code requestName}, made here on its first use unless {@link #describe} made it: a
   * call reads it without a lock (computeIfAbsent locks the bin when the name is not first in it), and
   * a level's first call takes the path every call before it took, not an insert.
   */
  private Series series(String requestName) {
    Series s = series.get(requestName);
    return s != null ? s : series.computeIfAbsent(requestName, n -> new Series(n, order));
  }

  /**
   * Says what {@code requestName} is: its level, kept with its figures, and makes its series ahead of
   * its first call (a name never recorded is no row).
   */
  public void describe(String requestName, Level level) {
    levels.put(requestName, level);
    Series made = series(requestName);
    if (level.duringFault() && made.takenFrom == null) { // on the level's clock, and a hole in its span
      Series from = series(level.outsideFault().name());
      made.takenFrom = from;
      from.apart = made;
    }
  }

  /** What {@code requestName} is, if its namer said ({@link #describe}); else null. */
  public Level level(String requestName) {
    return levels.get(requestName);
  }

  /** The figures of one request name so far, if it was recorded. */
  public Optional<RequestStats> stats(String requestName) {
    return Optional.ofNullable(series.get(requestName)).filter(Series::begun).map(this::stats);
  }

  private RequestStats stats(Series s) {
    return s.stats().withLevel(levels.get(s.name));
  }

  /** Calls recorded so far under {@code requestName}, OK and KO; cheaper than a {@link #snapshot}. */
  public long count(String requestName) {
    Series s = series.get(requestName);
    return s == null ? 0 : s.shards.stream().mapToLong(shard -> shard.count.get()).sum();
  }

  /** Figures per request name, in the order the names were first seen. */
  public List<RequestStats> snapshot() {
    List<Series> all = new ArrayList<>(series.values());
    all.removeIf(s -> !s.begun()); // before sorting: a begun series' order no longer changes
    all.sort(Comparator.comparingLong(s -> s.order));
    List<RequestStats> out = new ArrayList<>(all.size());
    for (Series s : all) {
      out.add(stats(s));
    }
    return out;
  }
}
