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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Microsecond latency per request name. Gatling keeps whole milliseconds, and these echo calls take
 * 50-200 µs, so every Gatling percentile would read 0 ms; this records what Gatling cannot, plus what
 * a reader needs to trust a level: completions per 1-second window and the KO reasons.
 * Thread-safe, and without contention: calls complete on several event loops at once.
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

  private static final long EPOCH_MILLIS_AT_NANO_ZERO = System.currentTimeMillis() - System.nanoTime() / 1_000_000L;

  private final Map<String, Series> series = new ConcurrentHashMap<>();
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

  private Series series(String requestName) {
    return series.computeIfAbsent(requestName, n -> new Series(n, order.getAndIncrement()));
  }

  /** The figures of one request name so far, if it was recorded. */
  public Optional<RequestStats> stats(String requestName) {
    return Optional.ofNullable(series.get(requestName)).map(Series::stats);
  }

  /** Calls recorded so far under {@code requestName}, OK and KO; cheaper than a {@link #snapshot}. */
  public long count(String requestName) {
    Series s = series.get(requestName);
    return s == null ? 0 : s.shards.stream().mapToLong(shard -> shard.count.get()).sum();
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

  /**
   * An open-model level's own figures, µs: what it was offered, what it dropped at the in-flight cap,
   * the response time (from the schedule's due time to the reply, OK calls) and the send lag (due to
   * sent, every sent call). The level's main latency fields stay the service time (sent to reply).
   */
  public record Open(double offered, int maxInFlight, long dropped, long unsent, String unsentReason,
                     double responseMean, long responseP50, long responseP90, long responseP99, long responseP999,
                     long responseMax, List<SpectrumPoint> responseSpectrum, String responseHistogram, long lagP50,
                     long lagP99, long lagMax, String lagHistogram) {
    /**
     * The figures of {@code response} (due to reply, OK calls) and {@code lag} (due to sent) histograms,
     * µs; {@code unsent} calls were due but never sent because a sender stopped ({@code unsentReason}).
     */
    public static Open of(double offered, int maxInFlight, long dropped, long unsent, String unsentReason,
                          Histogram response, Histogram lag) {
      boolean anyResponse = response.getTotalCount() > 0;
      return new Open(offered, maxInFlight, dropped, unsent, unsentReason, anyResponse ? response.getMean() : 0,
          percentile(response, 50), percentile(response, 90), percentile(response, 99), percentile(response, 99.9),
          anyResponse ? response.getMaxValue() : 0, spectrumOf(response), encode(response), percentile(lag, 50),
          percentile(lag, 99), lag.getTotalCount() > 0 ? lag.getMaxValue() : 0, encode(lag));
    }

    /** The response times as an HdrHistogram (exact, mergeable). */
    public Histogram decodeResponseHistogram() {
      return decode(responseHistogram);
    }

    /** The send lags as an HdrHistogram (exact, mergeable). */
    public Histogram decodeLagHistogram() {
      return decode(lagHistogram);
    }

    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("offeredPerSecond", RequestStats.round(offered, 1));
      m.put("maxInFlight", maxInFlight);
      m.put("dropped", dropped);
      if (unsent > 0) {
        m.put("unsent", unsent);
        m.put("unsentReason", unsentReason);
      }
      m.put("responseMean", RequestStats.round(responseMean, 1));
      m.put("responseP50", responseP50);
      m.put("responseP90", responseP90);
      m.put("responseP99", responseP99);
      m.put("responseP999", responseP999);
      m.put("responseMax", responseMax);
      m.put("responseSpectrum", responseSpectrum);
      m.put("responseHistogram", responseHistogram);
      m.put("sendLagP50", lagP50);
      m.put("sendLagP99", lagP99);
      m.put("sendLagMax", lagMax);
      m.put("sendLagHistogram", lagHistogram);
      return m;
    }
  }

  /** One point of the latency spectrum: the latency in µs at or below which {@code percentile}% of OK calls fell. */
  public record SpectrumPoint(double percentile, long micros) {
  }

  /**
   * One request name's figures. The level's <em>sending span</em> runs from its first call's start
   * (an open level's first due time) to its last call's start (due time), rounded up to a tenth of a
   * second ({@code sendEndNanos}); {@code durationSeconds} is that span, and {@code throughput} the
   * responses (OK and KO) that ended within it per second of it ({@code okThroughput}: OK ones), so a
   * call still in flight when the level stops sending, a late reply or a timeout, cannot stretch it. A
   * level that sent for under a second is taken over its whole span, to its last reply. Latencies are
   * OK calls only; {@code count} and {@code ko} are every call. {@code okWindows}/{@code koWindows}
   * count completions per second from {@code startNanos} (to the last reply), and
   * {@code p50Windows}/{@code p99Windows} give the OK calls' µs per second (0: none).
   */
  public record RequestStats(String name, long count, long ko, double durationSeconds, double throughput,
                             double okThroughput, double mean, long p50, long p90, long p99, long p999, long max,
                             Map<String, Long> koReasons, long[] okWindows, long[] koWindows, long[] p50Windows,
                             long[] p99Windows, List<SpectrumPoint> spectrum, String histogram, long startNanos,
                             long sendEndNanos, long endNanos, long startEpochMillis, long sendEndEpochMillis,
                             long endEpochMillis, Open open) {
    /**
     * The figures of {@code ok} (OK latencies, µs) and the counts. The throughputs are given, not
     * derived: a merge of injectors sums theirs over the window they shared.
     */
    public static RequestStats of(String name, long count, long ko, double durationSeconds, double throughput,
                                  double okThroughput, Histogram ok, Map<String, Long> koReasons, long[] okWindows,
                                  long[] koWindows, long[] p50Windows, long[] p99Windows, long startNanos,
                                  long sendEndNanos, long endNanos, long startEpochMillis, long sendEndEpochMillis,
                                  long endEpochMillis, Open open) {
      boolean any = ok.getTotalCount() > 0;
      return new RequestStats(name, count, ko, durationSeconds, throughput, okThroughput, any ? ok.getMean() : 0,
          percentile(ok, 50), percentile(ok, 90), percentile(ok, 99), percentile(ok, 99.9), any ? ok.getMaxValue() : 0,
          koReasons, okWindows, koWindows, p50Windows, p99Windows, spectrumOf(ok), encode(ok), startNanos,
          sendEndNanos, endNanos, startEpochMillis, sendEndEpochMillis, endEpochMillis, open);
    }

    /** Whether this is an open-model (rate) level, with {@link #open} figures. */
    public boolean isOpen() {
      return open != null;
    }

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
      m.put("p50PerSecond", p50Windows);
      m.put("p99PerSecond", p99Windows);
      m.put("spectrum", spectrum);
      m.put("histogram", histogram);
      m.put("startEpochMillis", startEpochMillis);
      m.put("sendEndEpochMillis", sendEndEpochMillis);
      m.put("endEpochMillis", endEpochMillis);
      if (open != null) {
        m.put("open", open.asMap());
      }
      return m;
    }

    /** The OK latencies as an HdrHistogram, decoded from {@link #histogram} (exact, mergeable). */
    public Histogram decodeHistogram() {
      return decode(histogram);
    }

    /** {@code v} to {@code digits} decimals, as the summary writes its rates. */
    public static double round(double v, int digits) {
      double f = Math.pow(10, digits);
      return Math.round(v * f) / f;
    }
  }

  private static long percentile(Histogram h, double p) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p);
  }

  private static List<SpectrumPoint> spectrumOf(Histogram h) {
    List<SpectrumPoint> out = new ArrayList<>();
    if (h.getTotalCount() > 0) {
      for (double p : SPECTRUM) {
        out.add(new SpectrumPoint(p, p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p)));
      }
    }
    return out;
  }

  private static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  /** The wall-clock time of a {@link System#nanoTime} reading, for comparing runs of several JVMs. */
  public static long epochMillis(long nanos) {
    return EPOCH_MILLIS_AT_NANO_ZERO + Math.floorDiv(nanos, 1_000_000L);
  }

  /** An HdrHistogram from its base64 compressed encoding, as the summary holds it. */
  public static Histogram decode(String encoded) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
    } catch (java.util.zip.DataFormatException | RuntimeException e) {
      throw new IllegalArgumentException("undecodable histogram: " + Errors.oneLine(e));
    }
  }

  /** Completions are counted per tenth of a second: the sending span ends on a tenth, windows are ten of them. */
  static final long SLOT_NANOS = 100_000_000L;
  static final int SLOTS_PER_WINDOW = 10;
  /** A level that sent for less than this is taken over its whole span, to its last reply. */
  static final long MIN_SENDING_NANOS = 1_000_000_000L;
  /**
   * Per-second latency is kept as a histogram until the level is this many seconds past it, then as
   * p50 and p99: event loops record their calls within microseconds of each other's seconds, so a
   * thread still adding to a second this old would be one stalled for seconds.
   */
  private static final int OPEN_LATENCY_WINDOWS = 5;

  /**
   * One request name. Each thread that completes calls records into a shard of its own (a
   * single-writer HdrHistogram {@link SingleWriterRecorder} and counters it alone writes), so calls
   * completing on several event loops at once contend on nothing; reading merges the shards.
   */
  private static final class Series {
    final String name;
    final long order;
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
    /** Per-second OK latency the shards handed over, by window, until it is final. Guarded by this. */
    final Map<Integer, Histogram> openLatency = new HashMap<>();
    /** Final per-second p50 and p99 (µs), by window. Guarded by this. */
    long[] p50 = new long[0];
    long[] p99 = new long[0];
    int newestLatencyWindow = -1;

    Series(String name, long order) {
      this.name = name;
      this.order = order;
    }

    private Shard newShard() {
      Shard s = new Shard();
      shards.add(s);
      return s;
    }

    void begin(long nanos) {
      if (origin == Long.MIN_VALUE) {
        synchronized (this) {
          if (origin == Long.MIN_VALUE) {
            origin = nanos;
          }
        }
      }
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
          reason = koReasons.size() < MAX_KO_REASONS ? koReasons.computeIfAbsent(koReason, r -> new LongAdder())
              : koReasons.computeIfAbsent(OTHER_KO, r -> new LongAdder());
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
      p50[window] = percentile(h, 50);
      p99[window] = percentile(h, 99);
    }

    synchronized RequestStats stats() {
      long n = 0;
      long ko = 0;
      long first = Long.MAX_VALUE;
      long lastDue = Long.MIN_VALUE;
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
        first = Math.min(first, s.firstStart.get());
        lastDue = Math.max(lastDue, s.lastStart.get());
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
        p50Windows[w] = h != null ? percentile(h, 50) : w < p50.length ? p50[w] : 0;
        p99Windows[w] = h != null ? percentile(h, 99) : w < p99.length ? p99[w] : 0;
      }
      Histogram h = merged.copy();
      long ok = h.getTotalCount();
      // The sending span: to the slot of the last start (due time), so late replies cannot stretch it.
      long sendEnd = last;
      double seconds = n == 0 ? 0 : Math.max(0, last - start) / 1e9;
      double inSpan = n;
      double okInSpan = ok;
      if (n > 0 && lastDue != Long.MIN_VALUE && lastDue - start >= MIN_SENDING_NANOS) {
        int slots = (int) ((lastDue - start) / SLOT_NANOS) + 1;
        long[] counted = new long[2];
        for (Shard sh : shards) {
          sh.addSlots(slots, counted);
        }
        inSpan = counted[0] + counted[1];
        okInSpan = counted[0];
        sendEnd = start + slots * SLOT_NANOS;
        seconds = slots * SLOT_NANOS / 1e9;
      }
      Map<String, Long> reasons = new LinkedHashMap<>();
      koReasons.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
          .forEach(e -> reasons.put(e.getKey(), e.getValue().sum()));
      Open openFigures = open ? Open.of(Double.isNaN(offered) ? 0 : offered, maxInFlight, dropped, unsent.sum(),
          unsentReason, mergedResponse.copy(), mergedLag.copy()) : null;
      if (n == 0) {
        start = sendEnd = last = 0;
      }
      return RequestStats.of(name, n, ko, seconds, seconds > 0 ? inSpan / seconds : 0,
          seconds > 0 ? okInSpan / seconds : 0, h, reasons, okWindows, koWindows, p50Windows, p99Windows, start,
          sendEnd, last, n == 0 ? 0 : epochMillis(start), n == 0 ? 0 : epochMillis(sendEnd),
          n == 0 ? 0 : epochMillis(last), openFigures);
    }
  }

  /**
   * What one thread recorded for one request name. Only that thread writes; its counters are
   * published with ordered stores (no lock, no read-modify-write) and read by the report. Its latency
   * of the current second is a histogram behind the shard's own lock, uncontended but for a report.
   */
  private static final class Shard {
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
    volatile AtomicLongArray slots = new AtomicLongArray(2 * 16 * SLOTS_PER_WINDOW);
    /** The OK latency of this thread's current second, 2 significant digits. Guarded by this. */
    private Histogram latency;
    private int latencyWindow = -1;
    /** The window of the histogram {@link #record} last returned. */
    int handedWindow;

    /** Records a call; returns the previous second's latency when this call is the first of a new second. */
    Histogram record(long intendedNanos, long startNanos, long endNanos, int slot, boolean ok, boolean open) {
      count.lazySet(count.get() + 1);
      long micros = Math.max(0, (endNanos - startNanos) / 1_000);
      if (open) {
        if (response == null) {
          lag = new SingleWriterRecorder(3);
          response = new SingleWriterRecorder(3);
        }
        lag.recordValue(Math.max(0, (startNanos - intendedNanos) / 1_000));
        if (ok) {
          response.recordValue(Math.max(0, (endNanos - intendedNanos) / 1_000));
        }
      }
      Histogram done = null;
      if (ok) {
        this.micros.recordValue(micros);
        done = perSecond(slot / SLOTS_PER_WINDOW, micros);
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
      for (int i = 0; i < w.length() && i / 2 / SLOTS_PER_WINDOW < ok.length; i++) {
        (i % 2 == 0 ? ok : ko)[i / 2 / SLOTS_PER_WINDOW] += w.get(i);
      }
    }

    /** Adds the completions of the first {@code n} slots to {@code counted}: {OK, KO}. */
    void addSlots(int n, long[] counted) {
      AtomicLongArray w = slots;
      for (int i = 0; i < Math.min(w.length(), 2 * n); i++) {
        counted[i % 2] += w.get(i);
      }
    }
  }
}
