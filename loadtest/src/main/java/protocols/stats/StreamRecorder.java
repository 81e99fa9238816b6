package protocols.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import protocols.rpc.StreamResult;

/**
 * The per-message figures of a run's streams, per request name: streams, messages each way and per
 * second, time to first message, gaps between messages and, for echoing streams, each message's
 * round trip (µs), failed streams' messages up to their failure among them. Its streams' own OK/KO counts
 * and durations are in the call recorder, one record each.
 */
public final class StreamRecorder {
  private final Map<String, Totals> byName = new ConcurrentHashMap<>();
  private final Map<String, StreamLevel> levels = new ConcurrentHashMap<>();

  /** The streaming shootout's level a request of this name measures; returns its name. */
  public String describe(StreamLevel level) {
    levels.put(level.name(), level);
    return level.name();
  }

  /** One OK stream of {@code name}, from {@code startNanos} to {@code endNanos}. */
  public void record(String name, long startNanos, long endNanos, StreamResult stream) {
    record(name, startNanos, endNanos, stream, true);
  }

  /** One stream of {@code name}; a failed one ({@code ok} false) with what it did before it failed. */
  public void record(String name, long startNanos, long endNanos, StreamResult stream, boolean ok) {
    byName.computeIfAbsent(name, n -> new Totals()).add(startNanos, endNanos, stream, ok);
  }

  /** What was recorded, per request name, sorted by name; rates over each stream's first start to last end. */
  public List<StreamStats> snapshot() {
    return snapshot(name -> OptionalDouble.empty());
  }

  /**
   * As above, with messages per second over {@code sendingSeconds} of a request where it has them (its
   * level's sending span, as its calls/s are), else from its first stream's start to its last one's end.
   */
  public List<StreamStats> snapshot(Function<String, OptionalDouble> sendingSeconds) {
    List<StreamStats> out = new ArrayList<>();
    byName.forEach((name, totals) -> out.add(totals.stats(name, sendingSeconds.apply(name), levels.get(name))));
    out.sort(java.util.Comparator.comparing(StreamStats::name));
    return out;
  }

  private static final class Totals {
    private long streams;
    private long failed;
    private long sent;
    private long received;
    private long firstStart = Long.MAX_VALUE;
    private long lastEnd = Long.MIN_VALUE;
    private final Histogram first = StreamResult.histogram();
    private final Histogram gaps = StreamResult.histogram();
    private final Histogram roundTrips = StreamResult.histogram();
    private final Histogram sendLags = StreamResult.histogram();

    synchronized void add(long startNanos, long endNanos, StreamResult s, boolean ok) {
      streams++;
      if (!ok) {
        failed++;
      }
      sent += s.sent();
      received += s.received();
      firstStart = Math.min(firstStart, startNanos);
      lastEnd = Math.max(lastEnd, endNanos);
      if (s.firstMessageMicros() >= 0) {
        first.recordValue(s.firstMessageMicros());
      }
      gaps.add(s.gapsMicros());
      roundTrips.add(s.roundTripsMicros());
      sendLags.add(s.sendLagsMicros());
    }

    synchronized StreamStats stats(String name, OptionalDouble sendingSeconds, StreamLevel level) {
      double seconds = Math.max(1e-9, sendingSeconds.orElse((lastEnd - firstStart) / 1e9));
      return new StreamStats(name, streams, failed, sent, received, RequestStats.round(sent / seconds, 1),
          RequestStats.round(received / seconds, 1), Histograms.percentile(first, 50), Histograms.percentile(first, 99),
          Histograms.percentile(gaps, 50), Histograms.percentile(gaps, 99), Histograms.max(gaps),
          roundTrips.getTotalCount(), Histograms.percentile(roundTrips, 50), Histograms.percentile(roundTrips, 99),
          Histograms.percentile(roundTrips, 99.9), Histograms.max(roundTrips), sendLags.getTotalCount(),
          Histograms.percentile(sendLags, 50), Histograms.percentile(sendLags, 99), Histograms.max(sendLags), level);
    }
  }
}
