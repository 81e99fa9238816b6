package protocols.report;

import static protocols.stats.Numbers.fmt;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import protocols.stats.Level;

/**
 * The shootout's comparison as rows, and the files and console tables made of them: {@code
 * comparison.csv}, {@code comparison-rates.csv}, the capacity and harness-efficiency tables.
 */
public final class Comparison {
  private Comparison() {}

  /**
   * One framework, mode and closed level. {@code throughput} and {@code plainThroughput} are OK calls/s
   * (a KO is no call served; {@code ko} stands beside), and so is every ratio and CPU per call made of
   * them. Ratios are null when there is nothing to divide by. CPU per call is the driving JVM's CPU time
   * divided by its OK calls, in µs: it does not depend on how busy the
   * machine is; {@link #harnessCpuPerCall} is Gatling's minus the plain driver's.
   */
  @JsonPropertyOrder({"framework", "mode", "clients"})
  public record Row(@JsonIgnore Level level, long callsPerClient, long totalCalls, double seconds, double throughput,
                    long ko, Long p50, Long p99, Long p999, Double ceilingRatio, Double plainThroughput,
                    Double gatlingVsPlain, String plainFlag, Double gatlingCpuPerCall, Double plainCpuPerCall,
                    Double serverCpuPerCall) {
    @JsonProperty
    public String framework() {
      return level.framework();
    }

    @JsonProperty
    public String mode() {
      return level.mode().label();
    }

    @JsonProperty
    public int clients() {
      return level.size();
    }

    @JsonProperty
    public Double harnessCpuPerCall() {
      return gatlingCpuPerCall == null || plainCpuPerCall == null ? null : gatlingCpuPerCall - plainCpuPerCall;
    }

    /** The page Gatling's report gives this row's request. */
    @JsonIgnore
    public String gatlingPage() {
      return gatlingRequestPage(level.name());
    }
  }

  /**
   * One framework, mode and open-model level (µs): offered and achieved OK calls/s, drops, send lag,
   * service and response times, and the saturation verdict.
   */
  @JsonPropertyOrder({"framework", "mode"})
  public record RateRow(@JsonIgnore Level level, double offered, double achieved, long dropped, long ko, long lagP50,
                        long lagP99, long serviceP50, long serviceP99, long responseP50, long responseP99,
                        long responseP999, boolean saturated, String limit, String reason) {
    @JsonProperty
    public String framework() {
      return level.framework();
    }

    @JsonProperty
    public String mode() {
      return level.mode().label();
    }
  }

  /** Per framework and mode: the highest offered rate that did not saturate, and its response-time p99. */
  public record Capacity(String framework, String mode, Double highestUnsaturated, Long responseP99,
                         Double lowestSaturated, String limit) {
  }

  /** Per framework and mode, from its open-model levels. */
  public static List<Capacity> capacities(List<RateRow> rows) {
    Map<String, Capacity> out = new LinkedHashMap<>();
    for (RateRow r : rows) {
      String key = r.framework() + " " + r.mode();
      Capacity c = out.getOrDefault(key, new Capacity(r.framework(), r.mode(), null, null, null, null));
      if (!r.saturated() && (c.highestUnsaturated() == null || r.offered() > c.highestUnsaturated())) {
        c = new Capacity(c.framework(), c.mode(), r.offered(), r.responseP99(), c.lowestSaturated(), c.limit());
      } else if (r.saturated() && (c.lowestSaturated() == null || r.offered() < c.lowestSaturated())) {
        c = new Capacity(c.framework(), c.mode(), c.highestUnsaturated(), c.responseP99(), r.offered(), r.limit());
      }
      out.put(key, c);
    }
    return List.copyOf(out.values());
  }

  public static String csv(List<Row> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,clients,calls_per_client,total_calls,seconds,ok_throughput,ko,"
        + "p50_us,p99_us,p999_us,ceiling_ratio,plain_ok_throughput,gatling_vs_plain,gatling_cpu_us_per_call,"
        + "plain_cpu_us_per_call,harness_cpu_us_per_call,server_cpu_us_per_call\n");
    for (Row r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), Integer.toString(r.clients()),
          Long.toString(r.callsPerClient()), Long.toString(r.totalCalls()), fmt(r.seconds(), 3), fmt(r.throughput(), 1),
          Long.toString(r.ko()), Objects.toString(r.p50(), ""), Objects.toString(r.p99(), ""),
          Objects.toString(r.p999(), ""),
          optional(r.ceilingRatio(), 3), optional(r.plainThroughput(), 1), optional(r.gatlingVsPlain(), 3),
          optional(r.gatlingCpuPerCall(), 2), optional(r.plainCpuPerCall(), 2), optional(r.harnessCpuPerCall(), 2),
          optional(r.serverCpuPerCall(), 2)))
          .append('\n');
    }
    return sb.toString();
  }

  public static String ratesCsv(List<RateRow> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,offered_per_s,achieved_ok_per_s,dropped,ko,send_lag_p50_us,"
        + "send_lag_p99_us,service_p50_us,service_p99_us,response_p50_us,response_p99_us,response_p999_us,saturated,"
        + "limit\n");
    for (RateRow r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), fmt(r.offered(), 0), fmt(r.achieved(), 1),
          Long.toString(r.dropped()), Long.toString(r.ko()), Long.toString(r.lagP50()), Long.toString(r.lagP99()),
          Long.toString(r.serviceP50()), Long.toString(r.serviceP99()), Long.toString(r.responseP50()),
          Long.toString(r.responseP99()), Long.toString(r.responseP999()), Boolean.toString(r.saturated()),
          r.limit() == null ? "" : r.limit())).append('\n');
    }
    return sb.toString();
  }

  /** The console's capacity table. */
  public static String capacityTable(List<Capacity> capacities) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nOpen-model capacity (response times in µs)%n"
        + "%-9s %-8s %22s %22s %18s %9s%n", "framework", "mode", "highest unsaturated/s", "response p99 there",
        "saturated at/s", "limit"));
    for (Capacity c : capacities) {
      sb.append(String.format(Locale.ROOT, "%-9s %-8s %22s %22s %18s %9s%n", c.framework(), c.mode(),
          optional(c.highestUnsaturated(), 0), c.responseP99() == null ? "" : c.responseP99().toString(),
          optional(c.lowestSaturated(), 0), c.limit() == null ? "" : c.limit()));
    }
    return sb.toString();
  }

  /** The harness's cost, for the console: throughput ratio and CPU per call, Gatling against the plain driver. */
  public static String efficiencyTable(List<Row> rows) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%nHarness efficiency (Gatling against the plain driver; CPU in µs per call of the driving JVM)%n"
            + "%-9s %-8s %7s %11s %11s %8s %9s %9s %9s%n", "framework", "mode", "clients", "Gatling/s", "plain/s",
        "G/plain", "G CPU", "plain CPU", "harness"));
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "%-9s %-8s %7d %11.0f %11s %8s %9s %9s %9s%n", r.framework(),
          r.mode(), r.clients(), r.throughput(), optional(r.plainThroughput(), 0),
          r.plainFlag() != null ? "flagged" : optional(r.gatlingVsPlain(), 2), optional(r.gatlingCpuPerCall(), 1),
          optional(r.plainCpuPerCall(), 1), optional(r.harnessCpuPerCall(), 1)));
    }
    return sb.toString();
  }

  static String optional(Double v, int decimals) {
    return v == null ? "" : fmt(v, decimals);
  }

  /**
   * The page Gatling's report gives a request: {@code req_<first 15 cleaned chars>-<hashCode>.html}
   * (gatling-charts' FileNamingConventions), so each row links to its level in Gatling's report.
   */
  public static String gatlingRequestPage(String requestName) {
    String trimmed = requestName.trim();
    String clean = Normalizer.normalize(trimmed, Normalizer.Form.NFD).toLowerCase(Locale.ROOT)
        .replaceAll("\\p{InCombiningDiacriticalMarks}+", "-").replaceAll("[^a-zA-Z0-9\\-]", "-");
    return "req_" + clean.substring(0, Math.min(15, clean.length())) + "-" + trimmed.hashCode() + ".html";
  }
}
