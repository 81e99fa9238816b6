package protocols.stats;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One request name's figures. The level's <em>sending span</em> runs from its first call's start
 * (an open level's first due time) to its last call's start (due time), rounded up to a tenth of a
 * second ({@code sendEndNanos}); {@code durationSeconds} is that span, and {@code throughput} the
 * responses (OK and KO) that ended within it per second of it ({@code okThroughput}: OK ones), so a
 * call still in flight when the level stops sending, a late reply or a timeout, cannot stretch it. A
 * level that sent for under a second is taken over its whole span, to its last reply. Latencies are
 * OK calls only; {@code count} and {@code ko} are every call. {@code okWindows}/{@code koWindows}
 * count completions per second from {@code startNanos} (to the last reply), and
 * {@code p50Windows}/{@code p99Windows} give the OK calls' µs per second (0: none). {@code level} says
 * what the request is: a closed or rate level, a warm-up, a ramp, a fault window (null: a request of a
 * simulation's own, not one of the lab's or an open-model level).
 */
public record RequestStats(String name, long count, long ko, double durationSeconds, double throughput,
                           double okThroughput, double mean, long p50, long p90, long p99, long p999, long max,
                           Map<String, Long> koReasons, long[] okWindows, long[] koWindows, long[] p50Windows,
                           long[] p99Windows, List<SpectrumPoint> spectrum, String histogram, long startNanos,
                           long sendEndNanos, long endNanos, long startEpochMillis, long sendEndEpochMillis,
                           long endEpochMillis, OpenStats open, Level level) {
  /**
   * The figures of {@code ok} (OK latencies, µs) and the counts. The throughputs are given, not
   * derived: a merge of injectors sums theirs over the window they shared.
   */
  public static RequestStats of(String name, long count, long ko, double durationSeconds, double throughput,
                                double okThroughput, Histogram ok, Map<String, Long> koReasons, long[] okWindows,
                                long[] koWindows, long[] p50Windows, long[] p99Windows, long startNanos,
                                long sendEndNanos, long endNanos, long startEpochMillis, long sendEndEpochMillis,
                                long endEpochMillis, OpenStats open) {
    return new RequestStats(name, count, ko, durationSeconds, throughput, okThroughput, Histograms.mean(ok),
        Histograms.percentile(ok, 50), Histograms.percentile(ok, 90), Histograms.percentile(ok, 99),
        Histograms.percentile(ok, 99.9), Histograms.max(ok), koReasons, okWindows, koWindows, p50Windows, p99Windows,
        Histograms.spectrum(ok), Histograms.encode(ok), startNanos, sendEndNanos, endNanos, startEpochMillis,
        sendEndEpochMillis, endEpochMillis, open, null);
  }

  /** These figures, as the level {@code level} (null: a request of a simulation's own, no level). */
  public RequestStats withLevel(Level level) {
    return new RequestStats(name, count, ko, durationSeconds, throughput, okThroughput, mean, p50, p90, p99, p999,
        max, koReasons, okWindows, koWindows, p50Windows, p99Windows, spectrum, histogram, startNanos, sendEndNanos,
        endNanos, startEpochMillis, sendEndEpochMillis, endEpochMillis, open, level);
  }

  /** Whether any call was OK: without one its latencies (0) are no figure and are shown as "–" or null. */
  public boolean hasOkCalls() {
    return count > ko;
  }

  /** Whether its figures are a measurement (not a warm-up, not a ramp); a request without a level is. */
  public boolean measured() {
    return level == null || level.measured();
  }

  /** Whether its calls are those of an injected fault's window. */
  public boolean duringFault() {
    return level != null && level.duringFault();
  }

  /** Whether this is an open-model (rate) level, with {@link #open} figures. */
  public boolean isOpen() {
    return open != null;
  }

  /** The OK latencies as an HdrHistogram, decoded from {@link #histogram} (exact, mergeable). */
  public Histogram decodeHistogram() {
    return Histograms.decode(histogram);
  }

  /** {@code v} to {@code digits} decimals, as the summary writes its rates. */
  public static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
