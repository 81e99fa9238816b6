package protocols.report;

import static protocols.stats.Numbers.fmt;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import protocols.rpc.ClientPath;
import protocols.rpc.InvocationMode;
import protocols.stats.Interval;
import protocols.stats.Level;
import protocols.stats.TrialStats;
import protocols.stats.Verdict;
import protocols.stats.profile.Component;
import protocols.stats.profile.LevelProfile;

/**
 * The shootout's comparison as rows, and the files and console tables made of them: {@code
 * comparison.csv}, {@code comparison-rates.csv}, the capacity and harness-efficiency tables.
 */
public final class Comparison {
  private Comparison() {}

  /**
   * A variant's client in one mode as the run laid it out: its connections ({@code -Dconnections}, else the
   * framework's layout in short) and the thread hand-offs of one call on the injector.
   */
  public record ClientLayout(String connections, int hopsPerCall) {
    public static ClientLayout of(ClientPath path, int connections, InvocationMode mode) {
      return new ClientLayout(path.layout(connections), path.hops(mode));
    }
  }

  /**
   * One framework, mode and closed level. {@code throughput} and {@code plainThroughput} are OK calls/s
   * (a KO is no call served; {@code ko} stands beside), and so is every ratio and CPU per call made of
   * them. Ratios are null when there is nothing to divide by. CPU per call is the driving JVM's CPU time
   * divided by its OK calls, in µs: it does not depend on how busy the
   * machine is; {@link #harnessCpuPerCall} is Gatling's minus the plain driver's. {@code p50VsPlain}:
   * Gatling's median latency over the plain driver's, with its interval (the harness's part of a call's
   * latency).
   */
  @JsonPropertyOrder({"framework", "mode", "clients"})
  public record Row(@JsonIgnore Level level, long callsPerClient, long totalCalls, double seconds, double throughput,
                    long ko, Long p50, Long p99, Long p999, Double ceilingRatio, Double plainThroughput,
                    Double gatlingVsPlain, String plainFlag, Double gatlingCpuPerCall, Double plainCpuPerCall,
                    Double serverCpuPerCall, Spread spread, Interval gatlingVsPlainInterval,
                    Interval p50VsPlain, String connections, Integer hopsPerCall) {
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
      return gatlingRequestPage(spread == null ? level.name() : spread.medianTrial());
    }
  }

  /**
   * A level's figures over its trials ({@code -Drepeat}): each the median of the trials with its 95%
   * interval, every trial's calls/s in the order they ran, and the request of the trial whose calls/s is
   * the median (its p99.9, server CPU and Gatling page stand for the level). Null on a level measured once.
   */
  public record Spread(int trials, Interval throughput, Interval p50, Interval p99, Interval cpuPerCall,
                       List<Double> trialThroughputs, String medianTrial) {
  }

  /**
   * Two variants at the same level and mode (or one variant in two modes): the candidate's figure over
   * the baseline's, each with its 95% interval and the verdict it supports.
   */
  public record Pair(String baseline, String candidate, String mode, int clients, Interval throughputRatio,
                     Verdict throughputVerdict, Interval p50Ratio, Verdict p50Verdict, Interval p99Ratio,
                     Verdict p99Verdict) {
  }

  /** One framework's variant at one payload size ({@code -Dpayload}): a point of the payload charts. */
  public record PayloadPoint(String variant, String framework, int bytes, String label) {
  }

  /**
   * The smallest calls/s change this run could tell apart at a level (0.04: ±4%): between its own
   * variants, paired in rounds (null with one variant or one trial), and against trials measured apart, e.g.
   * another run's (unpaired); and how they were made.
   */
  public record Resolution(int clients, String mode, Double paired, double fraction, String method) {
    public boolean hasPaired() {
      return paired != null;
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
        + "plain_cpu_us_per_call,harness_cpu_us_per_call,server_cpu_us_per_call,trials,ok_throughput_low,"
        + "ok_throughput_high,p99_us_low,p99_us_high,gatling_vs_plain_low,gatling_vs_plain_high,gatling_vs_plain_p50,"
        + "gatling_vs_plain_p50_low,gatling_vs_plain_p50_high,connections,hops_per_call\n");
    for (Row r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), Integer.toString(r.clients()),
          Long.toString(r.callsPerClient()), Long.toString(r.totalCalls()), fmt(r.seconds(), 3), fmt(r.throughput(), 1),
          Long.toString(r.ko()), Objects.toString(r.p50(), ""), Objects.toString(r.p99(), ""),
          Objects.toString(r.p999(), ""),
          optional(r.ceilingRatio(), 3), optional(r.plainThroughput(), 1), optional(r.gatlingVsPlain(), 3),
          optional(r.gatlingCpuPerCall(), 2), optional(r.plainCpuPerCall(), 2), optional(r.harnessCpuPerCall(), 2),
          optional(r.serverCpuPerCall(), 2), r.spread() == null ? "1" : Integer.toString(r.spread().trials()),
          bound(r.spread() == null ? null : r.spread().throughput().lo(), 1),
          bound(r.spread() == null ? null : r.spread().throughput().hi(), 1),
          bound(r.spread() == null ? null : r.spread().p99().lo(), 0),
          bound(r.spread() == null ? null : r.spread().p99().hi(), 0),
          bound(r.gatlingVsPlainInterval() == null ? null : r.gatlingVsPlainInterval().lo(), 3),
          bound(r.gatlingVsPlainInterval() == null ? null : r.gatlingVsPlainInterval().hi(), 3),
          bound(r.p50VsPlain() == null ? null : r.p50VsPlain().mid(), 3),
          bound(r.p50VsPlain() == null ? null : r.p50VsPlain().lo(), 3),
          bound(r.p50VsPlain() == null ? null : r.p50VsPlain().hi(), 3), Objects.toString(r.connections(), ""),
          Objects.toString(r.hopsPerCall(), "")))
          .append('\n');
    }
    return sb.toString();
  }

  /**
   * One side's profile of one measured level of the shootout (a trial's, with -Drepeat): its level's
   * values, then the {@link LevelProfile} (flame graph relative to the run's folder, breakdown).
   */
  public record ProfileRow(String framework, String mode, int clients, int trial,
                           @JsonUnwrapped LevelProfile profile) {
    public static ProfileRow of(Level level, LevelProfile profile) {
      return new ProfileRow(level.framework(), level.mode().label(), level.size(), level.trial(), profile);
    }
  }

  /** comparison-profiles.csv: one line per level, side and component (long form, for a pivot or a plot). */
  public static String profilesCsv(List<ProfileRow> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,clients,trial,side,samples,component,share,cpu_us_per_call,"
        + "flame_graph\n");
    for (ProfileRow r : rows) {
      LevelProfile p = r.profile();
      for (Component c : Component.values()) {
        Double perCall = p.cpuUsPerCall() == null ? null : p.cpuUsPerCall().get(c.label());
        sb.append(String.join(",", r.framework(), r.mode(), Integer.toString(r.clients()), Integer.toString(r.trial()),
            p.side().label(), Long.toString(p.samples()), c.label(), fmt(p.shares().getOrDefault(c.label(), 0.0), 4),
            optional(perCall, 2), Objects.toString(p.flameGraph(), ""))).append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * The harness's CPU per call by component, for the console: each level's injector over its plain
   * driver (-Dprofile with -Dplain=true), µs per call as the mean of the trials profiled on both sides;
   * nothing where no level has both.
   */
  public static String harnessProfileTable(List<ProfileRow> rows) {
    record Of(String framework, String mode, int clients) {
    }
    Map<Of, List<ProfileRow>> byLevel = new LinkedHashMap<>();
    for (ProfileRow r : rows) {
      if (r.profile().cpuUsPerCall() != null && r.profile().side() != LevelProfile.Side.SERVER) {
        byLevel.computeIfAbsent(new Of(r.framework(), r.mode(), r.clients()), k -> new ArrayList<>()).add(r);
      }
    }
    StringBuilder lines = new StringBuilder();
    for (List<ProfileRow> level : byLevel.values()) {
      Map<String, Double> g = meanPerCall(level, LevelProfile.Side.INJECTOR);
      Map<String, Double> p = meanPerCall(level, LevelProfile.Side.PLAIN);
      if (g == null || p == null) {
        continue;
      }
      ProfileRow first = level.get(0);
      lines.append(String.format(Locale.ROOT, "%-9s %-8s %7d %7.1f %7.1f", first.framework(), first.mode(),
          first.clients(), total(g), total(p)));
      for (Component c : Component.values()) {
        lines.append(String.format(Locale.ROOT, " %" + Math.max(7, c.label().length()) + "s", String.format(Locale.ROOT,
            "%+.1f", g.getOrDefault(c.label(), 0.0) - p.getOrDefault(c.label(), 0.0))));
      }
      lines.append(String.format("%n"));
    }
    if (lines.length() == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nWhere the harness's CPU goes (µs per call:"
        + " Gatling's injector, the plain driver, and the injector less the plain driver by component; means of the"
        + " profiled trials)%n%-9s %-8s %7s %7s %7s", "framework", "mode", "clients", "G", "plain"));
    for (Component c : Component.values()) {
      sb.append(String.format(Locale.ROOT, " %" + Math.max(7, c.label().length()) + "s", c.label()));
    }
    return sb.append(String.format("%n")).append(lines).toString();
  }

  /** The mean µs per call of each component over a level's trials on {@code side}, or null with none. */
  private static Map<String, Double> meanPerCall(List<ProfileRow> level, LevelProfile.Side side) {
    List<Map<String, Double>> trials = level.stream().filter(r -> r.profile().side() == side)
        .map(r -> r.profile().cpuUsPerCall()).toList();
    if (trials.isEmpty()) {
      return null;
    }
    Map<String, Double> mean = new LinkedHashMap<>();
    for (Map<String, Double> t : trials) {
      t.forEach((k, v) -> mean.merge(k, v / trials.size(), Double::sum));
    }
    return mean;
  }

  private static double total(Map<String, Double> perCall) {
    return perCall.values().stream().mapToDouble(Double::doubleValue).sum();
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

  /**
   * The harness's cost, for the console: calls/s and p50, Gatling over the plain driver with their
   * intervals, and CPU per call.
   */
  public static String efficiencyTable(List<Row> rows) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%nHarness efficiency (Gatling against the plain driver; 95%% intervals; CPU in µs per call of the driving"
            + " JVM)%n%-9s %-8s %7s %11s %11s %8s %-14s %8s %-14s %9s %9s %9s%n", "framework", "mode", "clients",
        "Gatling/s", "plain/s", "G/plain", "interval", "p50 G/p", "interval", "G CPU", "plain CPU", "harness"));
    for (Row r : rows) {
      Interval i = r.plainFlag() != null ? null : r.gatlingVsPlainInterval();
      Interval p50 = r.plainFlag() != null ? null : r.p50VsPlain();
      sb.append(String.format(Locale.ROOT, "%-9s %-8s %7d %11.0f %11s %8s %-14s %8s %-14s %9s %9s %9s%n",
          r.framework(), r.mode(), r.clients(), r.throughput(), optional(r.plainThroughput(), 0),
          r.plainFlag() != null ? "flagged" : optional(r.gatlingVsPlain(), 2), i == null ? "" : i.bounds(2),
          p50 == null ? "" : String.format(Locale.ROOT, "%.2f", p50.mid()), p50 == null ? "" : p50.bounds(2),
          optional(r.gatlingCpuPerCall(), 1), optional(r.plainCpuPerCall(), 1), optional(r.harnessCpuPerCall(), 1)));
    }
    return sb.toString();
  }

  /** The console's pairs: each ratio with its interval and verdict (candidate over baseline). */
  public static String pairsTable(List<Pair> pairs) {
    if (pairs.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nPairs (candidate / baseline, 95%% intervals;"
        + " %s; a verdict beyond %.0f%%, for p99 beyond %.0f%%)%n%-22s %-22s %-8s %7s  %-34s  %-34s%n",
        pairs.get(0).throughputRatio().method(), TrialStats.NOISE_FLOOR * 100, TrialStats.P99_NOISE_FLOOR * 100,
        "baseline", "candidate", "mode", "clients", "calls/s", "p99"));
    for (Pair p : pairs) {
      sb.append(String.format(Locale.ROOT, "%-22s %-22s %-8s %7d  %-34s  %-34s%n", p.baseline(), p.candidate(),
          p.mode(), p.clients(), ratio(p.throughputRatio(), p.throughputVerdict()), ratio(p.p99Ratio(),
              p.p99Verdict())));
    }
    return sb.toString();
  }

  /** {@code 0.93 [0.90, 0.96] slower}: a ratio, its interval and its verdict, the one way they are written. */
  public static String ratio(Interval r, Verdict v) {
    if (r == null || Double.isNaN(r.mid())) {
      return "";
    }
    if (Double.isInfinite(r.mid())) {
      return "no ratio: the baseline made no OK call";
    }
    return r.withBounds(2) + " " + v.label();
  }

  /** The console's last word on a comparison: what difference this run could tell apart, per level. */
  public static String resolutionLines(List<Resolution> resolutions) {
    StringBuilder sb = new StringBuilder();
    for (Resolution r : resolutions) {
      sb.append(String.format(Locale.ROOT, "Resolution at %d clients (%s): this run tells apart differences in calls/s"
          + " over %s%s (%s)%n", r.clients(), r.mode(), !r.hasPaired() ? ""
          : "±" + percent(r.paired()) + " between its variants, paired in rounds, and over ", "±"
          + percent(r.fraction()) + " against trials measured apart", r.method()));
    }
    return sb.toString();
  }

  private static String percent(double fraction) {
    return Double.isNaN(fraction) ? "?%" : fmt(100 * fraction, 1) + "%";
  }

  /** An interval's bound, empty where there is none (one trial). */
  private static String bound(Double v, int decimals) {
    return v == null || !Double.isFinite(v) ? "" : fmt(v, decimals);
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
