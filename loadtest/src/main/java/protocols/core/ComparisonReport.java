package protocols.core;

import static protocols.core.Html.esc;
import static protocols.core.Html.fmt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Comparator;

/**
 * The write-ups' comparison from one run: {@code comparison.json}, {@code comparison.csv} and a
 * self-contained {@code comparison.html} (table and two inline SVG charts; nothing loaded from the
 * network) in the run folder. Each row is one framework, mode and level; throughput is compared with
 * the ceiling's at the same level and mode and, when the plain driver ran, with the plain driver's.
 */
public final class ComparisonReport implements RunReport.SummaryListener {
  public static final String JSON = "comparison.json";
  public static final String CSV = "comparison.csv";
  public static final String HTML = "comparison.html";
  public static final String RATES_CSV = "comparison-rates.csv";
  /** In a plain-driver summary's {@code run}: µs of the driver JVM's CPU per call, by request name. */
  public static final String PLAIN_CPU_PER_CALL = "cpuMicrosPerCall";


  private final List<String> frameworks;
  private final List<InvocationMode> modes;
  private final List<Integer> levels;
  private final String ceiling;
  private final Map<String, String> parameters;
  /** Plain-driver summaries by "framework mode", each an rpc-summary-style JSON file. */
  private final Map<String, Path> plainResults;
  /** The frameworks' client library versions, by framework. */
  private final Map<String, String> frameworkVersions;

  public ComparisonReport(List<String> frameworks, Map<String, String> frameworkVersions, List<InvocationMode> modes,
                          List<Integer> levels, String ceiling, Map<String, String> parameters,
                          Map<String, Path> plainResults) {
    this.frameworkVersions = new LinkedHashMap<>(frameworkVersions);
    this.frameworks = List.copyOf(frameworks);
    this.modes = List.copyOf(modes);
    this.levels = List.copyOf(levels);
    this.ceiling = ceiling;
    this.parameters = new LinkedHashMap<>(parameters);
    this.plainResults = new LinkedHashMap<>(plainResults);
  }

  /**
   * One framework, mode and open-model level (µs): offered and achieved OK calls/s, drops, send lag,
   * service and response times, and the saturation verdict.
   */
  public record RateRow(String framework, String mode, double offered, double achieved, long dropped, long ko,
                        long lagP50, long lagP99, long serviceP50, long serviceP99, long responseP50, long responseP99,
                        long responseP999, boolean saturated, String limit, String reason) {
  }

  /** Per framework and mode: the highest offered rate that did not saturate, and its response-time p99. */
  public record Capacity(String framework, String mode, Double highestUnsaturated, Long responseP99,
                         Double lowestSaturated, String limit) {
  }

  /** The key of a plain-driver result. */
  public static String key(String framework, InvocationMode mode) {
    return framework + " " + mode.label();
  }

  /**
   * One framework, mode and level. Ratios are null when there is nothing to divide by. CPU per call is
   * the driving JVM's CPU time divided by its calls, in µs: it does not depend on how busy the machine
   * is; {@link #harnessCpuPerCall} is Gatling's minus the plain driver's.
   */
  public record Row(String framework, String mode, int clients, long callsPerClient, long totalCalls, double seconds,
                    double throughput, long ko, long p50, long p99, long p999, Double ceilingRatio,
                    Double plainThroughput, Double gatlingVsPlain, String plainFlag, Double gatlingCpuPerCall,
                    Double plainCpuPerCall) {
    public Double harnessCpuPerCall() {
      return gatlingCpuPerCall == null || plainCpuPerCall == null ? null : gatlingCpuPerCall - plainCpuPerCall;
    }
  }

  /**
   * The plain driver is a baseline only when it measured something comparable: at least one call per
   * client and a throughput not far below Gatling's. Gatling adds work per call, so Gatling / plain
   * above {@link #MAX_MEANINGFUL_VS_PLAIN} says the plain figure itself is low (a cold or starved JVM).
   */
  static final double MAX_MEANINGFUL_VS_PLAIN = 1.5;

  static String plainFlag(int clients, double gatlingThroughput, JsonNode plain) {
    if (plain == null) {
      return null;
    }
    long count = plain.get("count").asLong();
    double throughput = plain.get("throughput").asDouble();
    if (count < clients || throughput <= 0.01 * gatlingThroughput) {
      return "the plain driver measured " + count + " calls (" + fmt(throughput, 0) + " calls/s): no baseline";
    }
    if (gatlingThroughput / throughput > MAX_MEANINGFUL_VS_PLAIN) {
      return "Gatling / plain = " + fmt(gatlingThroughput / throughput, 2) + " (above " + MAX_MEANINGFUL_VS_PLAIN
          + "): the plain driver's " + fmt(throughput, 0) + " calls/s is too low to be a baseline";
    }
    return null;
  }

  private static List<RunAnalysis.Warning> plainDriverWarnings(List<Row> rows) {
    return rows.stream().filter(r -> r.plainFlag() != null)
        .map(r -> new RunAnalysis.Warning(EchoRun.requestName(r.framework() + " ", r.clients(),
            InvocationMode.parse(r.mode())), "plain-driver", r.plainFlag())).toList();
  }

  @Override
  public String what() {
    return "the comparison report";
  }

  @Override
  public void written(Path folder, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                      boolean interrupted) throws IOException {
    Map<String, LatencyRecorder.RequestStats> byName = new LinkedHashMap<>();
    requests.forEach(r -> byName.put(r.name(), r));
    List<Row> rows = rows(byName, name -> analysis.level(name).map(RunAnalysis.Level::cpu)
        .filter(c -> c != null && c.seconds() > 0).map(CpuSampler.Shares::injectorCores)
        .orElse(null));
    List<RunAnalysis.Warning> warnings = new ArrayList<>(analysis.warnings());
    warnings.addAll(plainDriverWarnings(rows));
    Map<String, Object> machine = RunContext.machine();
    Map<String, String> versions = new LinkedHashMap<>(RunContext.versions());
    versions.putAll(frameworkVersions);
    List<RateRow> rateRows = rateRows(requests, analysis);
    List<Capacity> capacities = capacities(rateRows);
    writeJson(folder.resolve(JSON), rows, rateRows, capacities, warnings, machine, versions, interrupted);
    Files.writeString(folder.resolve(CSV), csv(rows), StandardCharsets.UTF_8);
    if (!rateRows.isEmpty()) {
      Files.writeString(folder.resolve(RATES_CSV), ratesCsv(rateRows), StandardCharsets.UTF_8);
      System.out.print(capacityTable(capacities));
    }
    Files.writeString(folder.resolve(HTML), html(rows, rateRows, capacities, requests, warnings, analysis.cpuNotSampled(), machine, versions,
        interrupted), StandardCharsets.UTF_8);
    for (Path plain : plainResults.values()) {
      if (Files.exists(plain)) {
        Files.copy(plain, folder.resolve(plain.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
    if (!plainResults.isEmpty()) {
      System.out.print(efficiencyTable(rows));
    }
    System.out.println("Comparison report: " + folder.resolve(HTML).toAbsolutePath());
  }

  List<Row> rows(Map<String, LatencyRecorder.RequestStats> gatling) throws IOException {
    return rows(gatling, name -> null);
  }

  /**
   * @param injectorCores the Gatling JVM's CPU over a level, in cores (its share of the machine times
   *     the cores), by request name; null where it was not measured
   */
  List<Row> rows(Map<String, LatencyRecorder.RequestStats> gatling,
                 java.util.function.Function<String, Double> injectorCores) throws IOException {
    Map<String, JsonNode> plain = new LinkedHashMap<>();
    Map<String, JsonNode> plainCpu = new LinkedHashMap<>();
    for (Map.Entry<String, Path> e : plainResults.entrySet()) {
      if (Files.exists(e.getValue())) {
        JsonNode root = new ObjectMapper().readTree(e.getValue().toFile());
        plain.put(e.getKey(), root.get("requests"));
        plainCpu.put(e.getKey(), root.path("run").path(PLAIN_CPU_PER_CALL));
      }
    }
    List<Row> rows = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        for (int clients : levels) {
          LatencyRecorder.RequestStats s = gatling.get(EchoRun.requestName(framework + " ", clients, mode));
          if (s == null) {
            continue; // not reached: an interrupted run
          }
          Double ceilingRatio = Optional.ofNullable(gatling.get(EchoRun.requestName(ceiling + " ", clients, mode)))
              .filter(c -> c.throughput() > 0).map(c -> s.throughput() / c.throughput()).orElse(null);
          JsonNode p = Optional.ofNullable(plain.get(key(framework, mode)))
              .map(n -> n.get(EchoRun.requestName("", clients, mode))).orElse(null);
          String flag = plainFlag(clients, s.throughput(), p);
          Double plainThroughput = p == null ? null : p.get("throughput").asDouble();
          Double vsPlain = plainThroughput == null || flag != null ? null : s.throughput() / plainThroughput;
          Double cores = injectorCores.apply(s.name());
          Double gatlingCpu = cores == null || s.throughput() <= 0 ? null : cores * 1e6 / s.throughput();
          JsonNode pc = Optional.ofNullable(plainCpu.get(key(framework, mode)))
              .map(n -> n.get(EchoRun.requestName("", clients, mode))).orElse(null);
          Double plainCpuPerCall = pc == null || !pc.isNumber() ? null : pc.asDouble();
          rows.add(new Row(framework, mode.label(), clients, s.count() / clients, s.count(), s.durationSeconds(),
              s.throughput(), s.ko(), s.p50(), s.p99(), s.p999(), ceilingRatio, plainThroughput, vsPlain, flag,
              gatlingCpu, plainCpuPerCall));
        }
      }
    }
    return rows;
  }

  /** The open-model levels of each framework and mode, in offered-rate order. */
  List<RateRow> rateRows(List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis) {
    List<RateRow> out = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        openLevels(requests, framework, mode).forEach(r -> {
          Saturation sat = analysis.level(r.name()).map(RunAnalysis.Level::saturation).orElse(null);
          LatencyRecorder.Open o = r.open();
          out.add(new RateRow(framework, mode.label(), o.offered(), r.okThroughput(), o.dropped(), r.ko(),
              o.lagP50(), o.lagP99(), r.p50(), r.p99(), o.responseP50(), o.responseP99(), o.responseP999(),
              sat != null && sat.saturated(), sat == null ? null : sat.limit(), sat == null ? null : sat.reason()));
        });
      }
    }
    return out;
  }

  /** One framework's open-model levels in one mode, in offered-rate order. */
  private static List<LatencyRecorder.RequestStats> openLevels(List<LatencyRecorder.RequestStats> requests,
                                                                String framework, InvocationMode mode) {
    return requests.stream().filter(r -> r.isOpen() && EchoRun.isRateLevel(r.name(), framework + " ", mode))
        .sorted(Comparator.comparingDouble(r -> r.open().offered())).toList();
  }

  static List<Capacity> capacities(List<RateRow> rows) {
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

  static String capacityTable(List<Capacity> capacities) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nOpen-model capacity (response times in µs)%n"
        + "%-8s %-5s %22s %22s %18s %9s%n", "framework", "mode", "highest unsaturated/s", "response p99 there",
        "saturated at/s", "limit"));
    for (Capacity c : capacities) {
      sb.append(String.format(Locale.ROOT, "%-8s %-5s %22s %22s %18s %9s%n", c.framework(), c.mode(),
          optional(c.highestUnsaturated(), 0), c.responseP99() == null ? "" : c.responseP99().toString(),
          optional(c.lowestSaturated(), 0), c.limit() == null ? "" : c.limit()));
    }
    return sb.toString();
  }

  static String ratesCsv(List<RateRow> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,offered_per_s,achieved_ok_per_s,dropped,ko,send_lag_p50_us,send_lag_p99_us,"
        + "service_p50_us,service_p99_us,response_p50_us,response_p99_us,response_p999_us,saturated,limit\n");
    for (RateRow r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), fmt(r.offered(), 0), fmt(r.achieved(), 1),
          Long.toString(r.dropped()), Long.toString(r.ko()), Long.toString(r.lagP50()), Long.toString(r.lagP99()), Long.toString(r.serviceP50()),
          Long.toString(r.serviceP99()), Long.toString(r.responseP50()), Long.toString(r.responseP99()),
          Long.toString(r.responseP999()), Boolean.toString(r.saturated()), r.limit() == null ? "" : r.limit()))
          .append('\n');
    }
    return sb.toString();
  }

  private void writeJson(Path file, List<Row> rows, List<RateRow> rateRows, List<Capacity> capacities,
                         List<RunAnalysis.Warning> warnings, Map<String, Object> machine,
                         Map<String, String> versions, boolean interrupted) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("generated", Html.now());
    root.put("interrupted", interrupted);
    root.put("warnings", warnings);
    root.put("latencyUnit", "microseconds");
    root.put("ceiling", ceiling);
    root.put("machine", machine);
    root.put("versions", versions);
    root.put("parameters", parameters);
    root.put("gatlingReport", "index.html");
    root.put("rpcReport", RpcReportPage.FILE);
    root.put("rows", rows);
    root.put("rateRows", rateRows);
    root.put("capacity", capacities);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
  }

  static String csv(List<Row> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,clients,calls_per_client,total_calls,seconds,throughput,ko,"
        + "p50_us,p99_us,p999_us,ceiling_ratio,plain_throughput,gatling_vs_plain,gatling_cpu_us_per_call,"
        + "plain_cpu_us_per_call,harness_cpu_us_per_call\n");
    for (Row r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), Integer.toString(r.clients()),
          Long.toString(r.callsPerClient()), Long.toString(r.totalCalls()), fmt(r.seconds(), 3), fmt(r.throughput(), 1),
          Long.toString(r.ko()), Long.toString(r.p50()), Long.toString(r.p99()), Long.toString(r.p999()),
          optional(r.ceilingRatio(), 3),
          optional(r.plainThroughput(), 1),
          optional(r.gatlingVsPlain(), 3), optional(r.gatlingCpuPerCall(), 2),
          optional(r.plainCpuPerCall(), 2), optional(r.harnessCpuPerCall(), 2))).append('\n');
    }
    return sb.toString();
  }

  /** The harness's cost, for the console: throughput ratio and CPU per call, Gatling against the plain driver. */
  static String efficiencyTable(List<Row> rows) {
    StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT,
        "%nHarness efficiency (Gatling against the plain driver; CPU in µs per call of the driving JVM)%n"
            + "%-8s %-5s %7s %11s %11s %8s %9s %9s %9s%n", "framework", "mode", "clients", "Gatling/s", "plain/s",
        "G/plain", "G CPU", "plain CPU", "harness"));
    for (Row r : rows) {
      sb.append(String.format(java.util.Locale.ROOT, "%-8s %-5s %7d %11.0f %11s %8s %9s %9s %9s%n", r.framework(),
          r.mode(), r.clients(), r.throughput(), optional(r.plainThroughput(), 0),
          r.plainFlag() != null ? "flagged" : optional(r.gatlingVsPlain(), 2), optional(r.gatlingCpuPerCall(), 1),
          optional(r.plainCpuPerCall(), 1), optional(r.harnessCpuPerCall(), 1)));
    }
    return sb.toString();
  }

  private static String optional(Double v, int decimals) {
    return v == null ? "" : fmt(v, decimals);
  }

  // ---------------------------------------------------------------- HTML

  String html(List<Row> rows, List<RateRow> rateRows, List<Capacity> capacities,
              List<LatencyRecorder.RequestStats> requests, List<RunAnalysis.Warning> warnings,
              Optional<String> cpuNotSampled, Map<String, Object> machine, Map<String, String> versions,
              boolean interrupted) {
    StringBuilder h = Html.page("RPC shootout");
    h.append("<p>Echo of the write-ups' <code>Order</code>, one level after the other: closed-loop levels (N clients, ")
        .append("each waiting for its reply) and open-model levels (calls sent at a rate, on schedule). Latencies are ")
        .append("microseconds measured by the Gatling component on the thread that receives the reply; throughput is ")
        .append("responses per second of each level's sending span (first call's start to last call's start). ")
        .append("<em>vs ceiling</em> divides by the ").append(esc(ceiling))
        .append(" ceiling (a thin Netty/Kryo RPC) at the same level and mode; <em>Gatling / plain</em> divides by a ")
        .append("plain Java driver's throughput on the same client, server and level (1.0: Gatling costs nothing); ")
        .append("<em>CPU (µs/call)</em> is the driving JVM's CPU time per call, Gatling's and the plain driver's, and ")
        .append("<em>harness CPU</em> their difference: what Gatling costs per call, however busy the machine. ")
        .append("Generated ").append(esc(Html.now())).append(". Per level spectra, throughput over time and CPU shares: ")
        .append("<a id=\"rpc-report\" href=\"").append(RpcReportPage.FILE).append("\">").append(RpcReportPage.FILE)
        .append("</a>. Gatling's own report: <a id=\"gatling-report\" href=\"index.html\">")
        .append("index.html</a> (requests named <code>&lt;framework&gt; echo N clients (mode)</code>); each ")
        .append("<em>clients</em> cell links to that level's page in it.</p>\n");
    if (interrupted) {
      h.append("<p class=\"warn\">The run was interrupted: the figures cover only the levels that ran.</p>\n");
    }
    Html.warnings(h, warnings, cpuNotSampled);
    if (!rows.isEmpty()) {
      table(h, rows, warnings);
      h.append("<div>\n");
      h.append(chart("throughput-chart", "Throughput (calls/s) against concurrent clients", rows, Row::throughput));
      h.append(chart("p99-chart", "p99 latency (µs) against concurrent clients", rows, r -> (double) r.p99()));
      h.append("</div>\n");
    }
    if (!rateRows.isEmpty()) {
      rateTables(h, rateRows, capacities);
      List<Map.Entry<String, List<LatencyRecorder.RequestStats>>> groups = new ArrayList<>();
      for (String framework : frameworks) {
        for (InvocationMode mode : modes) {
          List<LatencyRecorder.RequestStats> open = openLevels(requests, framework, mode);
          if (!open.isEmpty()) {
            groups.add(Map.entry(modes.size() > 1 ? framework + " " + mode.label() : framework, open));
          }
        }
      }
      h.append("<div>\n").append(RpcReportPage.curve("curve-chart",
          "Response time (p99 solid, p50 dashed) against achieved calls/s", groups).render()).append("</div>\n");
    }
    Html.keyValues(h, "Machine", machine);
    Html.keyValues(h, "Versions", versions);
    Html.keyValues(h, "Parameters", parameters);
    h.append("</body></html>\n");
    return h.toString();
  }

  private void table(StringBuilder h, List<Row> rows, List<RunAnalysis.Warning> warnings) {
    h.append("<table id=\"results\"><caption>Results</caption>\n<tr><th>framework</th><th>mode</th><th>clients</th>")
        .append("<th>calls per client</th><th>total calls</th><th>time (s)</th><th>throughput (calls/s)</th><th>KO</th>")
        .append("<th>p50 (µs)</th><th>p99 (µs)</th><th>p99.9 (µs)</th><th>vs ceiling</th>")
        .append("<th>plain driver (calls/s)</th><th>Gatling / plain</th><th>Gatling CPU (µs/call)</th>")
        .append("<th>plain CPU (µs/call)</th><th>harness CPU (µs/call)</th></tr>\n");
    for (Row r : rows) {
      h.append("<tr data-framework=\"").append(esc(r.framework())).append("\" data-mode=\"").append(r.mode())
          .append("\" data-clients=\"").append(r.clients()).append('"')
          .append(flagged(r, warnings) ? " class=\"flagged\"" : "").append("><td class=\"t\">").append(esc(r.framework()))
          .append("</td><td class=\"t\">").append(r.mode()).append("</td><td><a class=\"gatling-page\" href=\"")
          .append(esc(gatlingRequestPage(EchoRun.requestName(r.framework() + " ", r.clients(),
              InvocationMode.parse(r.mode()))))).append("\">").append(r.clients()).append("</a></td><td>")
          .append(r.callsPerClient()).append("</td><td>").append(r.totalCalls()).append("</td><td>")
          .append(fmt(r.seconds(), 1)).append("</td><td class=\"throughput\">").append(fmt(r.throughput(), 0))
          .append("</td><td>").append(r.ko()).append("</td><td>").append(r.p50()).append("</td><td class=\"p99\">")
          .append(r.p99()).append("</td><td>").append(r.p999()).append("</td><td>")
          .append(optional(r.ceilingRatio(), 2)).append("</td><td>")
          .append(optional(r.plainThroughput(), 0)).append("</td><td>")
          .append(r.plainFlag() != null ? "<span class=\"warn\" title=\"" + esc(r.plainFlag()) + "\">flagged</span>"
              : optional(r.gatlingVsPlain(), 2)).append("</td><td>")
          .append(optional(r.gatlingCpuPerCall(), 1)).append("</td><td>").append(optional(r.plainCpuPerCall(), 1))
          .append("</td><td class=\"harness-cpu\">").append(optional(r.harnessCpuPerCall(), 1)).append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void rateTables(StringBuilder h, List<RateRow> rows, List<Capacity> capacities) {
    h.append("<table id=\"capacity\"><caption>Capacity: the highest offered rate each framework kept up with ")
        .append("(achieved within ").append(Math.round(Saturation.RATE_TOLERANCE * 100)).append("% of offered, nothing ")
        .append("dropped, sends on schedule), and its response-time p99</caption>\n<tr><th>framework</th><th>mode</th>")
        .append("<th>highest unsaturated (calls/s)</th><th>response p99 there (µs)</th>")
        .append("<th>lowest saturated (calls/s)</th><th>limit there</th></tr>\n");
    for (Capacity c : capacities) {
      h.append("<tr data-capacity=\"").append(esc(c.framework())).append("\"><td class=\"t\">")
          .append(esc(c.framework())).append("</td><td class=\"t\">").append(c.mode())
          .append("</td><td class=\"highest\">").append(optional(c.highestUnsaturated(), 0)).append("</td><td>")
          .append(c.responseP99() == null ? "" : c.responseP99()).append("</td><td>")
          .append(optional(c.lowestSaturated(), 0)).append("</td><td class=\"t\">")
          .append(c.limit() == null ? "" : esc(c.limit())).append("</td></tr>\n");
    }
    h.append("</table>\n<table id=\"rate-results\"><caption>Open-model levels (µs; <em>response</em> from the ")
        .append("schedule's due time, <em>service</em> from the send)</caption>\n<tr><th>framework</th><th>mode</th>")
        .append("<th>offered calls/s</th><th>achieved OK calls/s</th><th>dropped</th><th>KO</th><th>send lag p50</th>")
        .append("<th>send lag p99</th>")
        .append("<th>service p50</th><th>service p99</th><th>response p50</th><th>response p99</th>")
        .append("<th>response p99.9</th><th>saturated</th></tr>\n");
    for (RateRow r : rows) {
      h.append("<tr data-framework=\"").append(esc(r.framework())).append("\" data-offered=\"")
          .append(fmt(r.offered(), 0)).append("\"><td class=\"t\">").append(esc(r.framework()))
          .append("</td><td class=\"t\">").append(r.mode()).append("</td><td>").append(fmt(r.offered(), 0))
          .append("</td><td>").append(fmt(r.achieved(), 0)).append("</td><td>").append(r.dropped()).append("</td><td>")
          .append(r.ko()).append("</td><td>").append(r.lagP50()).append("</td><td>").append(r.lagP99()).append("</td><td>").append(r.serviceP50())
          .append("</td><td>").append(r.serviceP99()).append("</td><td>").append(r.responseP50()).append("</td><td>")
          .append(r.responseP99()).append("</td><td>").append(r.responseP999()).append("</td><td class=\"t\"")
          .append(r.reason() == null ? ">" : " title=\"" + esc(r.reason()) + "\">")
          .append(r.saturated() ? "<span class=\"warn\">yes: " + esc(r.limit()) + "</span>" : "no")
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /** One line per framework and mode, levels evenly spaced on x. */
  private String chart(String id, String title, List<Row> rows, java.util.function.ToDoubleFunction<Row> value) {
    SvgChart chart = SvgChart.of(id, title,
        SvgChart.Axis.categories("concurrent clients", levels.stream().map(String::valueOf).toList()),
        SvgChart.Axis.linear("", rows.stream().mapToDouble(value).max().orElse(1)));
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        List<double[]> points = rows.stream()
            .filter(r -> r.framework().equals(framework) && r.mode().equals(mode.label()))
            .map(r -> new double[] {levels.indexOf(r.clients()), value.applyAsDouble(r)}).toList();
        if (!points.isEmpty()) {
          chart = chart.with(new SvgChart.Series(modes.size() > 1 ? framework + " " + mode.label() : framework, points,
              mode == InvocationMode.SYNC && modes.size() > 1));
        }
      }
    }
    return chart.render();
  }

  /** Whether a validity warning names this row's level. */
  private static boolean flagged(Row r, List<RunAnalysis.Warning> warnings) {
    String request = EchoRun.requestName(r.framework() + " ", r.clients(), InvocationMode.parse(r.mode()));
    return warnings.stream().anyMatch(w -> w.request().equals(request));
  }

  /**
   * The page Gatling's report gives a request: {@code req_<first 15 cleaned chars>-<hashCode>.html}
   * (gatling-charts' FileNamingConventions), so each row links to its level in Gatling's report.
   */
  static String gatlingRequestPage(String requestName) {
    String trimmed = requestName.trim();
    String clean = Normalizer.normalize(trimmed, Normalizer.Form.NFD).toLowerCase(Locale.ROOT)
        .replaceAll("\\p{InCombiningDiacriticalMarks}+", "-").replaceAll("[^a-zA-Z0-9\\-]", "-");
    return "req_" + clean.substring(0, Math.min(15, clean.length())) + "-" + trimmed.hashCode() + ".html";
  }

}
