package protocols.live;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One request name's last {@link #SECONDS} seconds, a second at a time: its OK latencies (µs, from an
 * HdrHistogram {@link Recorder}, which its writers never wait for) and KO counts, and what it has in
 * flight now. The ticker rolls it each second; the scrape and the console read the closed seconds.
 */
final class Window {
  static final int SECONDS = 10;

  /** One closed second, or several added. */
  record Interval(Histogram ok, long ko, int seconds) {
  }

  /** Its Prometheus series. */
  record Points(CounterDataPoint ok, CounterDataPoint ko, GaugeDataPoint inFlight, DistributionDataPoint latency,
                DistributionDataPoint sendLag, GaugeDataPoint running) {
  }

  final String[] labels;
  final Points points;
  final Recorder ok = new Recorder(3);
  final LongAdder ko = new LongAdder();
  final LongAdder inFlight = new LongAdder();
  volatile boolean running;
  volatile long lastCall;
  private final ArrayDeque<Interval> seconds = new ArrayDeque<>();

  Window(String[] labels, Points points) {
    this.labels = labels;
    this.points = points;
  }

  /** Closes the second that just ended. */
  synchronized void roll() {
    seconds.addLast(new Interval(ok.getIntervalHistogram(), ko.sumThenReset(), 1));
    while (seconds.size() > SECONDS) {
      seconds.removeFirst();
    }
  }

  /** The OK latencies of the closed seconds kept. */
  synchronized Histogram recent() {
    return last(SECONDS).ok();
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
