package protocols.live;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One request name's figures as they come: counts of OK and KO calls and of calls in flight
 * ({@link LongAdder}s), and OK latencies and send lags in µs (HdrHistogram {@link Recorder}s, which
 * their writers never wait for). Each second the ticker closes the second: its latencies go into the
 * run's totals and into the last {@link #SECONDS} seconds kept for recent percentiles and the console.
 * Nothing here is Prometheus': a scrape reads these, so a call costs the same with no one scraping.
 */
final class Window {
  static final int SECONDS = 10;

  /** One closed second, or several added. */
  record Interval(Histogram ok, long ko, int seconds) {
  }

  final String[] labels;
  final LongAdder okCalls = new LongAdder();
  final LongAdder koCalls = new LongAdder();
  final LongAdder inFlight = new LongAdder();
  final LongAdder dropped = new LongAdder();
  final Recorder latencies = new Recorder(3);
  final Recorder sendLags = new Recorder(3);
  volatile double offeredRate = Double.NaN;
  volatile boolean running;
  volatile long lastCall;
  private long koBefore;
  private final Histogram latencyTotal = new Histogram(3);
  private final Histogram sendLagTotal = new Histogram(3);
  private final ArrayDeque<Interval> seconds = new ArrayDeque<>();

  Window(String[] labels) {
    this.labels = labels;
  }

  /** Closes the second that just ended. */
  synchronized void roll() {
    Histogram second = latencies.getIntervalHistogram();
    latencyTotal.add(second);
    sendLagTotal.add(sendLags.getIntervalHistogram());
    long ko = koCalls.sum();
    seconds.addLast(new Interval(second, ko - koBefore, 1));
    koBefore = ko;
    while (seconds.size() > SECONDS) {
      seconds.removeFirst();
    }
  }

  /** The OK latencies of the closed seconds kept. */
  synchronized Histogram recent() {
    return last(SECONDS).ok();
  }

  /** Every OK latency of the closed seconds since the start (µs). */
  synchronized Histogram latencyTotal() {
    return latencyTotal.copy();
  }

  /** Every send lag of the closed seconds since the start (µs); empty for a closed-model level. */
  synchronized Histogram sendLagTotal() {
    return sendLagTotal.copy();
  }

  /** The last {@code n} closed seconds as one (fewer if fewer have closed). */
  synchronized Interval last(int n) {
    Histogram sum = new Histogram(3);
    long kos = 0;
    int taken = 0;
    var it = seconds.descendingIterator();
    while (it.hasNext() && taken < n) {
      Interval i = it.next();
      sum.add(i.ok());
      kos += i.ko();
      taken++;
    }
    return new Interval(sum, kos, Math.max(1, taken));
  }
}
