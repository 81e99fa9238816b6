package protocols.stats;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * What one thread recorded for one request name. Only that thread writes; its counters are
 * published with ordered stores (no lock, no read-modify-write) and read by the report. Its latency
 * of the current second is a histogram behind the shard's own lock, uncontended but for a report.
 */
final class Shard {
  // Auto-resizing, 3 significant digits: 1 µs resolution below 1 ms.
  final SingleWriterRecorder micros = new SingleWriterRecorder(3);
  /** Open-model calls only: response time and send lag; made on this shard's first open call. */
  volatile SingleWriterRecorder response;
  volatile SingleWriterRecorder lag;
  final AtomicLong dropped = new AtomicLong();
  final AtomicLong count = new AtomicLong();
  final AtomicLong ko = new AtomicLong();
  final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
  /** The latest start (an open call's due time, dropped ones too). */
  final AtomicLong lastStart = new AtomicLong(Long.MIN_VALUE);
  final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
  /** Completions per tenth of a second, OK at even and KO at odd indexes; replaced when it grows. */
  volatile AtomicLongArray slots = new AtomicLongArray(2 * 16 * Series.SLOTS_PER_WINDOW);
  /** The OK latency of this thread's current second, 2 significant digits. Guarded by this. */
  private Histogram latency;
  private int latencyWindow = -1;
  /** The window of the histogram {@link #record} last returned. */
  int handedWindow;

  /** Records a call; returns the previous second's latency when this call is the first of a new second. */
  Histogram record(long intendedNanos, long startNanos, long endNanos, int slot, boolean ok, boolean open) {
    count.lazySet(count.get() + 1);
    long micros = micros(endNanos - startNanos);
    if (open) {
      if (response == null) {
        lag = new SingleWriterRecorder(3);
        response = new SingleWriterRecorder(3);
      }
      lag.recordValue(micros(startNanos - intendedNanos));
      // Every call that was due, OK or not: a call that timed out is the tail, at the time it took.
      response.recordValue(micros(endNanos - intendedNanos));
    }
    Histogram done = null;
    if (ok) {
      this.micros.recordValue(micros);
      done = perSecond(slot / Series.SLOTS_PER_WINDOW, micros);
    } else {
      ko.lazySet(ko.get() + 1);
    }
    AtomicLongArray w = slots;
    int i = 2 * slot + (ok ? 0 : 1);
    if (i >= w.length()) {
      AtomicLongArray grown = new AtomicLongArray(Math.max(2 * w.length(), i + 2));
      for (int k = 0; k < w.length(); k++) {
        grown.lazySet(k, w.get(k));
      }
      slots = w = grown;
    }
    w.lazySet(i, w.get(i) + 1);
    if (intendedNanos < firstStart.get()) {
      firstStart.lazySet(intendedNanos);
    }
    due(intendedNanos);
    if (endNanos > lastEnd.get()) {
      lastEnd.lazySet(endNanos);
    }
    return done;
  }

  /** Nanoseconds to the nearest µs (not truncated: a 99.9 µs call is 100 µs), never below 0. */
  static long micros(long nanos) {
    return Math.max(0, (nanos + 500) / 1_000);
  }

  void due(long nanos) {
    if (nanos > lastStart.get()) {
      lastStart.lazySet(nanos);
    }
  }

  private synchronized Histogram perSecond(int window, long micros) {
    Histogram done = null;
    if (window != latencyWindow) {
      done = latency;
      handedWindow = latencyWindow;
      latency = new Histogram(2);
      latencyWindow = window;
    }
    latency.recordValue(micros);
    return done;
  }

  /** Adds this shard's current second, not yet handed over, to {@code into}. */
  synchronized void currentLatency(Map<Integer, Histogram> into) {
    if (latency != null && latency.getTotalCount() > 0) {
      into.merge(latencyWindow, latency.copy(), (a, b) -> {
        a.add(b);
        return a;
      });
    }
  }

  /** Slots up to the last one with a completion. */
  int slotCount() {
    AtomicLongArray w = slots;
    for (int i = w.length() - 1; i >= 0; i--) {
      if (w.get(i) != 0) {
        return i / 2 + 1;
      }
    }
    return 0;
  }

  void addWindows(long[] ok, long[] ko) {
    AtomicLongArray w = slots;
    for (int i = 0; i < w.length() && i / 2 / Series.SLOTS_PER_WINDOW < ok.length; i++) {
      (i % 2 == 0 ? ok : ko)[i / 2 / Series.SLOTS_PER_WINDOW] += w.get(i);
    }
  }

  /** Adds the completions of slots {@code from} (inclusive) to {@code to} to {@code counted}: {OK, KO}. */
  void addSlots(int from, int to, long[] counted) {
    AtomicLongArray w = slots;
    for (int i = 2 * from; i < Math.min(w.length(), 2 * to); i++) {
      counted[i % 2] += w.get(i);
    }
  }
}
