package protocols.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
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
 * 50-200 µs, so every Gatling percentile would read 0 ms; this records what Gatling cannot, plus what
 * a reader needs to trust a level: completions per 1-second window and the KO reasons.
 * Thread-safe: calls complete on several event loops at once.
 */
public final class LatencyRecorder {

  /** The file written next to the run's index.html. */
  public static final String SUMMARY_FILE = "rpc-summary.json";
  /** Distinct KO messages kept per request; further ones are counted under {@link #OTHER_KO}. */
  static final int MAX_KO_REASONS = 20;
  static final String OTHER_KO = "(other messages)";
  static final int MAX_KO_REASON_CHARS = 300;
  /** The percentiles of the spectrum, HdrHistogram style: ever closer to 100. */
  static final double[] SPECTRUM = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96.875, 97.5, 98.4375,
      99, 99.2188, 99.5, 99.6094, 99.75, 99.8047, 99.9, 99.9023, 99.95, 99.9512, 99.975, 99.99, 99.995, 99.999, 100};

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final AtomicLong order = new AtomicLong();

  /** Records one completed call; latency counts only for OK calls, KOs are counted apart. */
  public void record(String requestName, long startNanos, long endNanos, boolean ok) {
    record(requestName, startNanos, endNanos, ok ? null : "KO");
  }

  /** Records one completed call: OK when {@code koReason} is null, else a KO with that message (cut at 300 chars). */
  public void record(String requestName, long startNanos, long endNanos, String koReason) {
    if (koReason != null && koReason.length() > MAX_KO_REASON_CHARS) {
      // Dubbo puts its whole URL in each message; the start says what happened.
      koReason = koReason.substring(0, MAX_KO_REASON_CHARS) + "…";
    }
    series.computeIfAbsent(requestName, n -> new Series(n, order.getAndIncrement()))
        .record(startNanos, endNanos, koReason);
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
    return writeSummaryTo(folder.resolve(SUMMARY_FILE), run, snapshot(), null);
  }

  /** Writes the summary to {@code target} atomically and returns it. */
  public Path writeSummaryTo(Path target, Map<String, Object> run) throws IOException {
    return writeSummaryTo(target, run, snapshot(), null);
  }

  /**
   * Writes {@code requests}, with the warnings and per-level validity figures of {@code analysis}
   * when there is one, to {@code target} atomically and returns it.
   */
  public static Path writeSummaryTo(Path target, Map<String, Object> run, List<RequestStats> requests,
                                    RunAnalysis analysis) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("unit", "microseconds");
    root.put("run", run);
    root.put("warnings", analysis == null ? List.of() : analysis.warnings());
    Map<String, Object> byName = new LinkedHashMap<>();
    for (RequestStats s : requests) {
      Map<String, Object> m = s.asMap();
      if (analysis != null) {
        analysis.level(s.name()).ifPresent(l -> m.put("validity", l.asMap()));
      }
      byName.put(s.name(), m);
    }
    root.put("requests", byName);
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path tmp = folder.resolve(target.getFileName() + ".tmp");
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(tmp.toFile(), root);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  /** One point of the latency spectrum: the latency in µs at or below which {@code percentile}% of OK calls fell. */
  public record SpectrumPoint(double percentile, long micros) {
  }

  /**
   * One request name's figures. Throughput is all responses (OK and KO) per second of the request's
   * own span, from its first call's start to its last call's end; {@code okThroughput} counts OK
   * responses only. Latencies are OK calls only. {@code okWindows}/{@code koWindows} count completions
   * per second from {@code startNanos}; the last window is usually partial.
   */
  public record RequestStats(String name, long count, long ko, double durationSeconds, double throughput,
                             double okThroughput, double mean, long p50, long p90, long p99, long p999, long max,
                             Map<String, Long> koReasons, long[] okWindows, long[] koWindows,
                             List<SpectrumPoint> spectrum, String histogram, long startNanos, long endNanos) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("count", count);
      m.put("ko", ko);
      m.put("durationSeconds", round(durationSeconds, 3));
      m.put("throughput", round(throughput, 1));
      m.put("okThroughput", round(okThroughput, 1));
      m.put("mean", round(mean, 1));
      m.put("p50", p50);
      m.put("p90", p90);
      m.put("p99", p99);
      m.put("p999", p999);
      m.put("max", max);
      m.put("koReasons", koReasons);
      m.put("okPerSecond", okWindows);
      m.put("koPerSecond", koWindows);
      m.put("spectrum", spectrum);
      m.put("histogram", histogram);
      return m;
    }

    /** The OK latencies as an HdrHistogram, decoded from {@link #histogram} (exact, mergeable). */
    public Histogram decodeHistogram() {
      try {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(histogram)), 0);
      } catch (java.util.zip.DataFormatException e) {
        throw new IllegalStateException("undecodable histogram", e);
      }
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
    final Map<String, LongAdder> koReasons = new ConcurrentHashMap<>();
    final Map<Integer, LongAdder> okWindows = new ConcurrentHashMap<>();
    final Map<Integer, LongAdder> koWindows = new ConcurrentHashMap<>();
    final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
    /** The windows' origin: the start of the first call recorded. */
    volatile long origin = Long.MIN_VALUE;

    Series(String name, long order) {
      this.name = name;
      this.order = order;
    }

    void record(long startNanos, long endNanos, String koReason) {
      if (origin == Long.MIN_VALUE) {
        synchronized (this) {
          if (origin == Long.MIN_VALUE) {
            origin = startNanos;
          }
        }
      }
      int window = (int) Math.max(0, (endNanos - origin) / 1_000_000_000L);
      count.increment();
      if (koReason == null) {
        micros.recordValue(Math.max(0, (endNanos - startNanos) / 1_000));
        okWindows.computeIfAbsent(window, w -> new LongAdder()).increment();
      } else {
        ko.increment();
        koWindows.computeIfAbsent(window, w -> new LongAdder()).increment();
        LongAdder reason = koReasons.get(koReason);
        if (reason == null) {
          reason = koReasons.size() < MAX_KO_REASONS ? koReasons.computeIfAbsent(koReason, r -> new LongAdder())
              : koReasons.computeIfAbsent(OTHER_KO, r -> new LongAdder());
        }
        reason.increment();
      }
      firstStart.accumulateAndGet(startNanos, Math::min);
      lastEnd.accumulateAndGet(endNanos, Math::max);
    }

    /** {@code counts} as an array of {@code length} windows (OK and KO arrays share one length). */
    static long[] windows(Map<Integer, LongAdder> counts, int length) {
      long[] out = new long[length];
      counts.forEach((i, c) -> {
        if (i < length) {
          out[i] = c.sum();
        }
      });
      return out;
    }

    RequestStats stats() {
      Histogram h = micros.copy();
      long n = count.sum();
      long ok = h.getTotalCount();
      double seconds = n == 0 ? 0 : Math.max(0, lastEnd.get() - firstStart.get()) / 1e9;
      boolean any = ok > 0;
      List<SpectrumPoint> spectrum = new ArrayList<>();
      if (any) {
        for (double p : SPECTRUM) {
          spectrum.add(new SpectrumPoint(p, p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p)));
        }
      }
      int windowCount = Math.max(okWindows.keySet().stream().mapToInt(i -> i + 1).max().orElse(0),
          koWindows.keySet().stream().mapToInt(i -> i + 1).max().orElse(0));
      Map<String, Long> reasons = new LinkedHashMap<>();
      koReasons.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
          .forEach(e -> reasons.put(e.getKey(), e.getValue().sum()));
      ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
      int length = h.encodeIntoCompressedByteBuffer(buffer);
      String encoded = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
      return new RequestStats(name, n, ko.sum(), seconds, seconds > 0 ? n / seconds : 0, seconds > 0 ? ok / seconds : 0,
          any ? h.getMean() : 0,
          any ? h.getValueAtPercentile(50) : 0,
          any ? h.getValueAtPercentile(90) : 0,
          any ? h.getValueAtPercentile(99) : 0,
          any ? h.getValueAtPercentile(99.9) : 0,
          any ? h.getMaxValue() : 0,
          reasons, windows(okWindows, windowCount), windows(koWindows, windowCount), spectrum, encoded,
          n == 0 ? 0 : firstStart.get(), n == 0 ? 0 : lastEnd.get());
    }
  }
}
