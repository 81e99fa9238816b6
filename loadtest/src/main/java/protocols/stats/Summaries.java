package protocols.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.rpc.InvocationMode;

/**
 * {@code rpc-summary.json}, read and written here only, as typed records. Format 2 records each
 * request's {@link Level}; a summary written before (format 1, no {@code format} field) still reads,
 * its levels taken from its request names, the one place names are parsed.
 */
public final class Summaries {
  /** The file written next to the run's index.html. */
  public static final String FILE = "rpc-summary.json";
  /** The format this code writes. */
  public static final int FORMAT = 2;
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private Summaries() {}

  /** A run's summary: who ran it, what could not be trusted, and per request its figures and validity. */
  public record Summary(RunInfo run, List<Warning> warnings, List<RequestStats> requests,
                        Map<String, Validity> validity, List<StreamStats> streams) {
    /** A run without streams. */
    public Summary(RunInfo run, List<Warning> warnings, List<RequestStats> requests, Map<String, Validity> validity) {
      this(run, warnings, requests, validity, List.of());
    }
  }

  /** The file's shape. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record File(Integer format, String unit, RunInfo run, List<Warning> warnings, Map<String, Request> requests,
              Map<String, StreamStats> streams) {
  }

  /**
   * One request as the file holds it (µs, rates to a tenth, times as epoch ms). Its latencies are null when no
   * call was OK: a 0 would read as fast.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Request(long count, long ko, double durationSeconds, double throughput, double okThroughput,
                 @JsonInclude(JsonInclude.Include.ALWAYS) Double mean, @JsonInclude(JsonInclude.Include.ALWAYS) Long p50,
                 @JsonInclude(JsonInclude.Include.ALWAYS) Long p90, @JsonInclude(JsonInclude.Include.ALWAYS) Long p99,
                 @JsonInclude(JsonInclude.Include.ALWAYS) Long p999, @JsonInclude(JsonInclude.Include.ALWAYS) Long max,
                 Map<String, Long> koReasons, long[] okPerSecond,
                 long[] koPerSecond, long[] p50PerSecond, long[] p99PerSecond, List<SpectrumPoint> spectrum,
                 String histogram, long startEpochMillis, Long sendEndEpochMillis, long endEpochMillis, Open open,
                 Level level, Validity validity) {
  }

  /** An open-model level's own figures as the file holds them. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Open(double offeredPerSecond, int maxInFlight, long dropped, Long unsent, String unsentReason,
              double responseMean, long responseP50, long responseP90, long responseP99, long responseP999,
              long responseMax, List<SpectrumPoint> responseSpectrum, String responseHistogram, long sendLagP50,
              long sendLagP99, long sendLagMax, String sendLagHistogram) {
  }

  /** Writes {@code summary} to {@code target} atomically (a reader never sees half a file); returns it. */
  public static Path write(Path target, Summary summary) throws IOException {
    Map<String, Request> requests = new LinkedHashMap<>();
    for (RequestStats r : summary.requests()) {
      requests.put(r.name(), toFile(r, summary.validity().get(r.name())));
    }
    Map<String, StreamStats> streams = new LinkedHashMap<>();
    summary.streams().forEach(st -> streams.put(st.name(), st));
    File file = new File(FORMAT, "microseconds", summary.run(), summary.warnings(), requests,
        streams.isEmpty() ? null : streams);
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path tmp = folder.resolve(target.getFileName() + ".tmp");
    JSON.writeValue(tmp.toFile(), file);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  /**
   * Adds how the run ended to a summary already written: {@code "outcome"} (an id a CI can compare) and
   * {@code "outcomeDetail"} (a sentence), atomically as {@link #write}.
   */
  public static void recordOutcome(Path file, String outcome, String detail) throws IOException {
    com.fasterxml.jackson.databind.node.ObjectNode root =
        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(file.toFile());
    root.put("outcome", outcome);
    root.put("outcomeDetail", detail);
    Path tmp = file.toAbsolutePath().getParent().resolve(file.getFileName() + ".tmp");
    JSON.writeValue(tmp.toFile(), root);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Adds a run's profiles to a summary already written ({@code "profiles"}), atomically as {@link #write}. */
  public static void recordProfiles(Path file, protocols.stats.profile.Profiles profiles) throws IOException {
    record(file, "profiles", profiles);
  }

  /** Adds a streaming shootout's levels over their trials ({@code "streamTrials"}), atomically as {@link #write}. */
  public static void recordStreamTrials(Path file, StreamTrials trials) throws IOException {
    record(file, "streamTrials", trials);
  }

  private static void record(Path file, String field, Object value) throws IOException {
    com.fasterxml.jackson.databind.node.ObjectNode root =
        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(file.toFile());
    root.set(field, JSON.valueToTree(value));
    Path tmp = file.toAbsolutePath().getParent().resolve(file.getFileName() + ".tmp");
    JSON.writeValue(tmp.toFile(), root);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Reads a summary of either format.
   *
   * @throws IOException when it cannot be read or is not a summary
   */
  public static Summary read(Path file) throws IOException {
    File f = JSON.readValue(file.toFile(), File.class);
    if (f.requests() == null) {
      throw new IOException("no requests: not an " + FILE);
    }
    boolean legacy = f.format() == null;
    List<RequestStats> requests = new ArrayList<>();
    Map<String, Validity> validity = new LinkedHashMap<>();
    for (Map.Entry<String, Request> e : f.requests().entrySet()) {
      Request r = e.getValue();
      if (r.histogram() == null) {
        throw new IOException("request '" + e.getKey() + "' has no histogram (written before runs could be merged)");
      }
      requests.add(fromFile(e.getKey(), r, legacy ? legacyLevel(e.getKey()) : r.level()));
      if (r.validity() != null) {
        validity.put(e.getKey(), r.validity());
      }
    }
    List<StreamStats> streams = f.streams() == null ? List.of() : List.copyOf(f.streams().values());
    return new Summary(f.run(), f.warnings() == null ? List.of() : f.warnings(), requests, validity, streams);
  }

  private static Request toFile(RequestStats r, Validity validity) {
    boolean ok = r.hasOkCalls();
    OpenStats o = r.open();
    Open open = o == null ? null : new Open(RequestStats.round(o.offered(), 1), o.maxInFlight(), o.dropped(),
        o.unsent() > 0 ? o.unsent() : null, o.unsent() > 0 ? o.unsentReason() : null,
        RequestStats.round(o.responseMean(), 1), o.responseP50(), o.responseP90(), o.responseP99(), o.responseP999(),
        o.responseMax(), o.responseSpectrum(), o.responseHistogram(), o.lagP50(), o.lagP99(), o.lagMax(),
        o.lagHistogram());
    return new Request(r.count(), r.ko(), RequestStats.round(r.durationSeconds(), 3),
        RequestStats.round(r.throughput(), 1), RequestStats.round(r.okThroughput(), 1),
        ok ? RequestStats.round(r.mean(), 1) : null, ok ? r.p50() : null, ok ? r.p90() : null, ok ? r.p99() : null,
        ok ? r.p999() : null, ok ? r.max() : null, r.koReasons(), r.okWindows(), r.koWindows(), r.p50Windows(),
        r.p99Windows(), r.spectrum(), r.histogram(), r.startEpochMillis(), r.sendEndEpochMillis(), r.endEpochMillis(),
        open, r.level(), validity);
  }

  private static long orZero(Long v) {
    return v == null ? 0 : v;
  }

  private static double orZero(Double v) {
    return v == null ? 0 : v;
  }

  private static RequestStats fromFile(String name, Request r, Level level) {
    Open o = r.open();
    OpenStats open = o == null ? null : new OpenStats(o.offeredPerSecond(), o.maxInFlight(), o.dropped(),
        o.unsent() == null ? 0 : o.unsent(), o.unsentReason(), o.responseMean(), o.responseP50(), o.responseP90(),
        o.responseP99(), o.responseP999(), o.responseMax(), list(o.responseSpectrum()), o.responseHistogram(),
        o.sendLagP50(), o.sendLagP99(), o.sendLagMax(), o.sendLagHistogram());
    long start = r.startEpochMillis();
    long end = r.endEpochMillis();
    long sendEnd = r.sendEndEpochMillis() == null ? end : r.sendEndEpochMillis(); // format 1: to the last reply
    return new RequestStats(name, r.count(), r.ko(), r.durationSeconds(), r.throughput(), r.okThroughput(),
        orZero(r.mean()), orZero(r.p50()), orZero(r.p90()), orZero(r.p99()), orZero(r.p999()), orZero(r.max()),
        r.koReasons() == null ? Map.of() : r.koReasons(),
        longs(r.okPerSecond()), longs(r.koPerSecond()), longs(r.p50PerSecond()), longs(r.p99PerSecond()),
        list(r.spectrum()), r.histogram(), start * 1_000_000L, sendEnd * 1_000_000L, end * 1_000_000L, start, sendEnd,
        end, open, level);
  }

  private static long[] longs(long[] a) {
    return a == null ? new long[0] : a;
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }

  /**
   * A format-1 summary's level from its request name, as those runs named them: {@code [framework ]echo
   * N clients (mode)}, {@code ... calls/s (mode)}, {@code [framework ]warm-up (mode)}, {@code [framework
   * ]ramp to ... (mode)}, each perhaps with {@code  during fault}; a simulation's own {@code call R
   * calls/s} and {@code call ramp to R calls/s}. Null for any other name.
   */
  static Level legacyLevel(String name) {
    boolean fault = name.endsWith(Level.DURING_FAULT);
    String n = fault ? name.substring(0, name.length() - Level.DURING_FAULT.length()) : name;
    Level level = null;
    Matcher m = LAB.matcher(n);
    Matcher own = OWN.matcher(n);
    if (m.matches()) {
      String framework = m.group(1).isEmpty() ? null : m.group(1).trim();
      InvocationMode mode = InvocationMode.parse(m.group(7));
      if (m.group(2) != null) {
        level = m.group(3).equals("clients") ? Level.closed(framework, Integer.parseInt(m.group(2)), mode)
            : Level.rate(framework, Integer.parseInt(m.group(2)), mode);
      } else if (m.group(4) != null) {
        level = (m.group(5).equals("clients") ? Level.closed(framework, Integer.parseInt(m.group(4)), mode)
            : Level.rate(framework, Integer.parseInt(m.group(4)), mode)).ramp();
      } else {
        level = Level.warmup(framework, mode);
      }
    } else if (own.matches()) {
      level = Level.rateOf(own.group(1), Integer.parseInt(own.group(3)));
      level = own.group(2) != null ? level.ramp() : level;
    }
    return level == null ? null : fault ? level.inFaultWindow() : level;
  }

  private static final Pattern LAB = Pattern.compile(
      "^(.*?)(?:echo (\\d+) (clients|calls/s)|ramp to (\\d+) (clients|calls/s)|(warm-up)) \\((async|sync)\\)$");
  private static final Pattern OWN = Pattern.compile("^(.+?) (ramp to )?(\\d+) calls/s$");
}
