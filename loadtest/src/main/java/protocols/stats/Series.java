package protocols.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * One request name. Each thread that completes calls records into a shard of its own (a
 * single-writer HdrHistogram {@link SingleWriterRecorder} and counters it alone writes), so calls
 * completing on several event loops at once contend on nothing; reading merges the shards.
 */
final class Series {
  /** Completions are counted per tenth of a second: the sending span ends on a tenth, windows are ten of them. */
  static final long SLOT_NANOS = 100_000_000L;
  static final int SLOTS_PER_WINDOW = 10;
  static final long WINDOW_NANOS = SLOT_NANOS * SLOTS_PER_WINDOW;
  /** A level that sent for less than this is taken over its whole span, to its last reply. */
  static final long MIN_SENDING_NANOS = 1_000_000_000L;
  /**
   * Per-second latency is kept as a histogram until the level is this many seconds past it, then as
   * p50 and p99: event loops record their calls within microseconds of each other's seconds, so a
   * thread still adding to a second this old would be one stalled for seconds.
   */
  static final int OPEN_LATENCY_WINDOWS = 5;

  final String name;
  /** Where it comes among the recorder's series: in the order they began, so a series made ahead takes its place then. */
  volatile long order = Long.MAX_VALUE;
  private final AtomicLong orders;
  final List<Shard> shards = new CopyOnWriteArrayList<>();
  final ThreadLocal<Shard> mine = ThreadLocal.withInitial(this::newShard);
  /** The shards' intervals read so far, merged: HdrHistograms add exactly. Guarded by this. */
  final Histogram merged = new Histogram(3);
  /** Open-model levels only: response times and send lags read so far, merged. Guarded by this. */
  final Histogram mergedResponse = new Histogram(3);
  final Histogram mergedLag = new Histogram(3);
  volatile double offered = Double.NaN;
  volatile int maxInFlight;
  final LongAdder unsent = new LongAdder();
  volatile String unsentReason;
  final Map<String, LongAdder> koReasons = new ConcurrentHashMap<>();
  /** The level's clock: its first call's start (or due time); windows count from it. */
  volatile long origin = Long.MIN_VALUE;
  /**
   * A fault window's calls: the level they were taken from. They keep its clock, moved on by whole
   * seconds to the window's first call, so their 1-second windows line up with the level's.
   */
  volatile Series takenFrom;
  /** A level: the series its fault window's calls went to; its span is not the time this level covers. */
  volatile Series apart;
  /** Per-second OK latency the shards handed over, by window, until it is final. Guarded by this. */
  final Map<Integer, Histogram> openLatency = new HashMap<>();
  /** Final per-second p50 and p99 (µs), by window. Guarded by this. */
  long[] p50 = new long[0];
  long[] p99 = new long[0];
  int newestLatencyWindow = -1;

  Series(String name, AtomicLong orders) {
    this.name = name;
    this.orders = orders;
  }

  private Shard newShard() {
    Shard s = new Shard();
    shards.add(s);
    return s;
  }

  /** Whether a call (or an open level's schedule) started it: a series made ahead of its level is no row until then. */
  boolean begun() {
    return origin != Long.MIN_VALUE;
  }

  void begin(long nanos) {
    if (!begun()) {
      synchronized (this) {
        if (!begun()) {
          Series level = takenFrom;
          long clock = level == null ? Long.MIN_VALUE : level.origin;
          order = orders.getAndIncrement();
          origin = clock == Long.MIN_VALUE ? nanos : clock + Math.floorDiv(nanos - clock, WINDOW_NANOS) * WINDOW_NANOS;
        }
      }
    }
  }

  /**
   * A sending span in nanos, {@code [from, to)}; {@code onSlots}: it ends on the slot of the last start
   * (else, sent for under {@link #MIN_SENDING_NANOS}, it runs to the last reply).
   */
  private record Span(long from, long to, boolean onSlots) {
  }

  /**
   * The sending span: from the first call's start (due time) on the slot grid of the clock (a level's:
   * the clock itself) to the end of the slot of the last start, or to the last reply when it sent for
   * under {@link #MIN_SENDING_NANOS}. Null before a call.
   */
  private Span sendingSpan() {
    long first = Long.MAX_VALUE;
    long lastDue = Long.MIN_VALUE;
    long last = Long.MIN_VALUE;
    for (Shard s : shards) {
      first = Math.min(first, s.firstStart.get());
      lastDue = Math.max(lastDue, s.lastStart.get());
      last = Math.max(last, s.lastEnd.get());
    }
    long clock = origin;
    if (first == Long.MAX_VALUE || clock == Long.MIN_VALUE) {
      return null;
    }
    long from = takenFrom == null ? clock : clock + Math.max(0, (first - clock) / SLOT_NANOS) * SLOT_NANOS;
    if (lastDue - from < MIN_SENDING_NANOS) {
      return new Span(from, Math.max(from, last), false);
    }
    return new Span(from, clock + ((lastDue - clock) / SLOT_NANOS + 1) * SLOT_NANOS, true);
  }

  /** {@code intendedNanos} is {@code startNanos} for a closed-loop call; the span counts from it. */
  void record(long intendedNanos, long startNanos, long endNanos, String koReason, boolean open) {
    begin(intendedNanos); // without a declared start: the first call recorded
    int slot = (int) Math.max(0, (endNanos - origin) / SLOT_NANOS);
    Shard shard = mine.get();
    Histogram done = shard.record(intendedNanos, startNanos, endNanos, slot, koReason == null, open);
    if (done != null) {
      handOver(shard.handedWindow, done);
    }
    if (koReason != null) {
      LongAdder reason = koReasons.get(koReason);
      if (reason == null) {
        reason = koReasons.size() < LatencyRecorder.MAX_KO_REASONS ? koReasons.computeIfAbsent(koReason, r -> new LongAdder())
            : koReasons.computeIfAbsent(LatencyRecorder.OTHER_KO, r -> new LongAdder());
      }
      reason.increment();
    }
  }

  /** A shard's latency of one window, finished: merged, and windows no shard can still add to made final. */
  synchronized void handOver(int window, Histogram h) {
    if (window < p50.length && p50[window] + p99[window] > 0) {
      return; // already final: a stray, late by seconds
    }
    openLatency.merge(window, h, (a, b) -> {
      a.add(b);
      return a;
    });
    newestLatencyWindow = Math.max(newestLatencyWindow, window);
    List<Integer> old = openLatency.keySet().stream()
        .filter(w -> w <= newestLatencyWindow - OPEN_LATENCY_WINDOWS).toList();
    for (int w : old) {
      finish(w, openLatency.remove(w));
    }
  }

  private void finish(int window, Histogram h) {
    if (window >= p50.length) {
      p50 = java.util.Arrays.copyOf(p50, Math.max(window + 1, 2 * p50.length));
      p99 = java.util.Arrays.copyOf(p99, p50.length);
    }
    p50[window] = Histograms.percentile(h, 50);
    p99[window] = Histograms.percentile(h, 99);
  }

  synchronized RequestStats stats() {
    long n = 0;
    long ko = 0;
    long last = Long.MIN_VALUE;
    int slotCount = 0;
    long dropped = 0;
    boolean open = !Double.isNaN(offered);
    Map<Integer, Histogram> latency = new HashMap<>();
    openLatency.forEach((w, h) -> latency.put(w, h.copy()));
    for (Shard s : shards) {
      merged.add(s.micros.getIntervalHistogram());
      if (s.response != null) {
        mergedResponse.add(s.response.getIntervalHistogram());
        mergedLag.add(s.lag.getIntervalHistogram());
        open = true;
      }
      dropped += s.dropped.get();
      n += s.count.get();
      ko += s.ko.get();
      last = Math.max(last, s.lastEnd.get());
      slotCount = Math.max(slotCount, s.slotCount());
      s.currentLatency(latency);
    }
    long start = origin; // the windows count from it
    int windowCount = (slotCount + SLOTS_PER_WINDOW - 1) / SLOTS_PER_WINDOW;
    long[] okWindows = new long[windowCount];
    long[] koWindows = new long[windowCount];
    for (Shard s : shards) {
      s.addWindows(okWindows, koWindows);
    }
    long[] p50Windows = new long[windowCount];
    long[] p99Windows = new long[windowCount];
    for (int w = 0; w < windowCount; w++) {
      Histogram h = latency.get(w);
      p50Windows[w] = h != null ? Histograms.percentile(h, 50) : w < p50.length ? p50[w] : 0;
      p99Windows[w] = h != null ? Histograms.percentile(h, 99) : w < p99.length ? p99[w] : 0;
    }
    Histogram h = merged.copy();
    long ok = h.getTotalCount();
    // The sending span: to the slot of the last start (due time), so late replies cannot stretch it.
    long sendEnd = last;
    double seconds = 0;
    double inSpan = n;
    double okInSpan = ok;
    Span span = n == 0 ? null : sendingSpan();
    if (span != null) {
      if (span.onSlots()) {
        long[] counted = new long[2];
        for (Shard sh : shards) {
          sh.addSlots((int) ((span.from() - start) / SLOT_NANOS), (int) ((span.to() - start) / SLOT_NANOS), counted);
        }
        inSpan = counted[0] + counted[1];
        okInSpan = counted[0];
      }
      sendEnd = span.to();
      // A level whose fault window's calls are counted apart covers its span less that window's.
      Series window = apart;
      Span hole = window == null ? null : window.sendingSpan();
      long covered = span.to() - span.from()
          - (hole == null ? 0 : Math.max(0, Math.min(span.to(), hole.to()) - Math.max(span.from(), hole.from())));
      seconds = Math.max(0, covered) / 1e9;
    }
    Map<String, Long> reasons = new LinkedHashMap<>();
    koReasons.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
        .forEach(e -> reasons.put(e.getKey(), e.getValue().sum()));
    OpenStats openFigures = open ? OpenStats.of(Double.isNaN(offered) ? 0 : offered, maxInFlight, dropped, unsent.sum(),
        unsentReason, mergedResponse.copy(), mergedLag.copy()) : null;
    if (n == 0) {
      start = sendEnd = last = 0;
    }
    return RequestStats.of(name, n, ko, seconds, seconds > 0 ? inSpan / seconds : 0,
        seconds > 0 ? okInSpan / seconds : 0, h, reasons, okWindows, koWindows, p50Windows, p99Windows, start,
        sendEnd, last, n == 0 ? 0 : Histograms.epochMillis(start), n == 0 ? 0 : Histograms.epochMillis(sendEnd),
        n == 0 ? 0 : Histograms.epochMillis(last), openFigures);
  }
}
