package protocols.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Microsecond latency per request name. Gatling keeps whole milliseconds, and these echo calls take
 * 50-200 µs, so every Gatling percentile would read 0 ms; this records what Gatling cannot.
 * Thread-safe: calls complete on several event loops at once.
 */
public final class LatencyRecorder {

  /** The file written next to the run's index.html. */
  public static final String SUMMARY_FILE = "rpc-summary.json";

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final AtomicLong order = new AtomicLong();

  /** Records one completed call; latency counts only for OK calls, KOs are counted apart. */
  public void record(String requestName, long startNanos, long endNanos, boolean ok) {
    series.computeIfAbsent(requestName, n -> new Series(n, order.getAndIncrement()))
        .record(startNanos, endNanos, ok);
  }

  /** Figures per request name, in the order the names were first seen. */
  public List<RequestStats> snapshot() {
    List<Series> all = new ArrayList<>(series.values());
    all.sort(Comparator.comparingLong(s -> s.order));
    List<RequestStats> out = new ArrayList<>(all.size());
    for (Series s : all) {
      out.add(s.stats());
    }
    return out;
  }

  /** Writes {@link #SUMMARY_FILE} into {@code folder} atomically and returns its path. */
  public Path writeSummary(Path folder, Map<String, Object> run) throws IOException {
    return writeSummaryTo(folder.resolve(SUMMARY_FILE), run);
  }

  /** Writes the summary to {@code target} atomically and returns it. */
  public Path writeSummaryTo(Path target, Map<String, Object> run) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("unit", "microseconds");
    root.put("run", run);
    Map<String, Object> requests = new LinkedHashMap<>();
    for (RequestStats s : snapshot()) {
      requests.put(s.name(), s.asMap());
    }
    root.put("requests", requests);
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path tmp = folder.resolve(target.getFileName() + ".tmp");
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(tmp.toFile(), root);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  /**
   * One request name's figures. Throughput is all responses (OK and KO) per second of the span from
   * the first call's start to the last call's end, as Gatling counts; latencies are OK calls only.
   */
  public record RequestStats(String name, long count, long ko, double durationSeconds, double throughput,
                             double mean, long p50, long p90, long p99, long p999, long max) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("count", count);
      m.put("ko", ko);
      m.put("durationSeconds", round(durationSeconds, 3));
      m.put("throughput", round(throughput, 1));
      m.put("mean", round(mean, 1));
      m.put("p50", p50);
      m.put("p90", p90);
      m.put("p99", p99);
      m.put("p999", p999);
      m.put("max", max);
      return m;
    }

    private static double round(double v, int digits) {
      double f = Math.pow(10, digits);
      return Math.round(v * f) / f;
    }
  }

  private static final class Series {
    final String name;
    final long order;
    // Auto-resizing, 3 significant digits: 1 µs resolution below 1 ms.
    final Histogram micros = new ConcurrentHistogram(3);
    final LongAdder count = new LongAdder();
    final LongAdder ko = new LongAdder();
    final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);

    Series(String name, long order) {
      this.name = name;
      this.order = order;
    }

    void record(long startNanos, long endNanos, boolean ok) {
      count.increment();
      if (ok) {
        micros.recordValue(Math.max(0, (endNanos - startNanos) / 1_000));
      } else {
        ko.increment();
      }
      firstStart.accumulateAndGet(startNanos, Math::min);
      lastEnd.accumulateAndGet(endNanos, Math::max);
    }

    RequestStats stats() {
      Histogram h = micros.copy();
      long n = count.sum();
      double seconds = n == 0 ? 0 : Math.max(0, lastEnd.get() - firstStart.get()) / 1e9;
      boolean any = h.getTotalCount() > 0;
      return new RequestStats(name, n, ko.sum(), seconds, seconds > 0 ? n / seconds : 0,
          any ? h.getMean() : 0,
          any ? h.getValueAtPercentile(50) : 0,
          any ? h.getValueAtPercentile(90) : 0,
          any ? h.getValueAtPercentile(99) : 0,
          any ? h.getValueAtPercentile(99.9) : 0,
          any ? h.getMaxValue() : 0);
    }
  }
}
