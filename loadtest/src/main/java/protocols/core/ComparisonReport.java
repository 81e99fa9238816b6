package protocols.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

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

  private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
      "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

  private final List<String> frameworks;
  private final List<InvocationMode> modes;
  private final List<Integer> levels;
  private final String ceiling;
  private final Map<String, String> parameters;
  /** Plain-driver summaries by "framework mode", each an rpc-summary-style JSON file. */
  private final Map<String, Path> plainResults;

  public ComparisonReport(List<String> frameworks, List<InvocationMode> modes, List<Integer> levels, String ceiling,
                          Map<String, String> parameters, Map<String, Path> plainResults) {
    this.frameworks = List.copyOf(frameworks);
    this.modes = List.copyOf(modes);
    this.levels = List.copyOf(levels);
    this.ceiling = ceiling;
    this.parameters = new LinkedHashMap<>(parameters);
    this.plainResults = new LinkedHashMap<>(plainResults);
  }

  /** The key of a plain-driver result. */
  public static String key(String framework, InvocationMode mode) {
    return framework + " " + mode.label();
  }

  /** One framework, mode and level. Ratios are null when there is nothing to divide by. */
  public record Row(String framework, String mode, int clients, long callsPerClient, long totalCalls, double seconds,
                    double throughput, long ko, long p50, long p99, long p999, Double ceilingRatio,
                    Double plainThroughput, Double gatlingVsPlain) {
  }

  @Override
  public void written(Path folder, List<LatencyRecorder.RequestStats> requests, boolean interrupted) throws IOException {
    Map<String, LatencyRecorder.RequestStats> byName = new LinkedHashMap<>();
    requests.forEach(r -> byName.put(r.name(), r));
    List<Row> rows = rows(byName);
    Map<String, Object> machine = machine();
    Map<String, String> versions = versions();
    writeJson(folder.resolve(JSON), rows, machine, versions, interrupted);
    Files.writeString(folder.resolve(CSV), csv(rows), StandardCharsets.UTF_8);
    Files.writeString(folder.resolve(HTML), html(rows, machine, versions, interrupted), StandardCharsets.UTF_8);
    for (Path plain : plainResults.values()) {
      if (Files.exists(plain)) {
        Files.copy(plain, folder.resolve(plain.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
    System.out.println("Comparison report: " + folder.resolve(HTML).toAbsolutePath());
  }

  List<Row> rows(Map<String, LatencyRecorder.RequestStats> gatling) throws IOException {
    Map<String, JsonNode> plain = new LinkedHashMap<>();
    for (Map.Entry<String, Path> e : plainResults.entrySet()) {
      if (Files.exists(e.getValue())) {
        plain.put(e.getKey(), new ObjectMapper().readTree(e.getValue().toFile()).get("requests"));
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
          Double plainThroughput = p == null ? null : p.get("throughput").asDouble();
          Double vsPlain = plainThroughput == null || plainThroughput <= 0 ? null : s.throughput() / plainThroughput;
          rows.add(new Row(framework, mode.label(), clients, s.count() / clients, s.count(), s.durationSeconds(),
              s.throughput(), s.ko(), s.p50(), s.p99(), s.p999(), ceilingRatio, plainThroughput, vsPlain));
        }
      }
    }
    return rows;
  }

  private void writeJson(Path file, List<Row> rows, Map<String, Object> machine, Map<String, String> versions,
                         boolean interrupted) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("generated", now());
    root.put("interrupted", interrupted);
    root.put("latencyUnit", "microseconds");
    root.put("ceiling", ceiling);
    root.put("machine", machine);
    root.put("versions", versions);
    root.put("parameters", parameters);
    root.put("gatlingReport", "index.html");
    root.put("rows", rows);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
  }

  static String csv(List<Row> rows) {
    StringBuilder sb = new StringBuilder("framework,mode,clients,calls_per_client,total_calls,seconds,throughput,ko,"
        + "p50_us,p99_us,p999_us,ceiling_ratio,plain_throughput,gatling_vs_plain\n");
    for (Row r : rows) {
      sb.append(String.join(",", r.framework(), r.mode(), Integer.toString(r.clients()),
          Long.toString(r.callsPerClient()), Long.toString(r.totalCalls()), fmt(r.seconds(), 3), fmt(r.throughput(), 1),
          Long.toString(r.ko()), Long.toString(r.p50()), Long.toString(r.p99()), Long.toString(r.p999()),
          r.ceilingRatio() == null ? "" : fmt(r.ceilingRatio(), 3),
          r.plainThroughput() == null ? "" : fmt(r.plainThroughput(), 1),
          r.gatlingVsPlain() == null ? "" : fmt(r.gatlingVsPlain(), 3))).append('\n');
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- HTML

  String html(List<Row> rows, Map<String, Object> machine, Map<String, String> versions, boolean interrupted) {
    StringBuilder h = new StringBuilder(32_768);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>RPC shootout</title>\n<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}")
        .append("th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f3f3f3}")
        .append("td.t{text-align:left}caption{text-align:left;font-weight:bold;margin-bottom:.3em}")
        .append(".warn{color:#b00;font-weight:bold}svg{background:#fff;border:1px solid #ddd;margin:1em 1em 0 0}")
        .append("</style></head><body>\n<h1>RPC shootout</h1>\n");
    h.append("<p>Echo of the write-ups' <code>Order</code>, closed loop, one level after the other. Latencies are ")
        .append("microseconds measured by the Gatling component on the thread that receives the reply; throughput is ")
        .append("responses per second. <em>vs ceiling</em> divides by the ").append(esc(ceiling))
        .append(" ceiling (a thin Netty/Kryo RPC) at the same level and mode; <em>Gatling / plain</em> divides by a ")
        .append("plain Java driver's throughput on the same client, server and level (1.0: Gatling costs nothing). ")
        .append("Generated ").append(esc(now())).append(". Gatling's own report: <a id=\"gatling-report\" href=\"index.html\">")
        .append("index.html</a> (requests named <code>&lt;framework&gt; echo N clients (mode)</code>); each ")
        .append("<em>clients</em> cell links to that level's page in it.</p>\n");
    if (interrupted) {
      h.append("<p class=\"warn\">The run was interrupted: the figures cover only the levels that ran.</p>\n");
    }
    table(h, rows);
    h.append("<div>\n");
    chart(h, "throughput-chart", "Throughput (calls/s) against concurrent clients", rows, Row::throughput);
    chart(h, "p99-chart", "p99 latency (µs) against concurrent clients", rows, r -> (double) r.p99());
    h.append("</div>\n");
    keyValues(h, "Machine", machine);
    keyValues(h, "Versions", versions);
    keyValues(h, "Parameters", parameters);
    h.append("</body></html>\n");
    return h.toString();
  }

  private void table(StringBuilder h, List<Row> rows) {
    h.append("<table id=\"results\"><caption>Results</caption>\n<tr><th>framework</th><th>mode</th><th>clients</th>")
        .append("<th>calls per client</th><th>total calls</th><th>time (s)</th><th>throughput (calls/s)</th><th>KO</th>")
        .append("<th>p50 (µs)</th><th>p99 (µs)</th><th>p99.9 (µs)</th><th>vs ceiling</th>")
        .append("<th>plain driver (calls/s)</th><th>Gatling / plain</th></tr>\n");
    for (Row r : rows) {
      h.append("<tr data-framework=\"").append(esc(r.framework())).append("\" data-mode=\"").append(r.mode())
          .append("\" data-clients=\"").append(r.clients()).append("\"><td class=\"t\">").append(esc(r.framework()))
          .append("</td><td class=\"t\">").append(r.mode()).append("</td><td><a class=\"gatling-page\" href=\"")
          .append(esc(gatlingRequestPage(EchoRun.requestName(r.framework() + " ", r.clients(),
              InvocationMode.parse(r.mode()))))).append("\">").append(r.clients()).append("</a></td><td>")
          .append(r.callsPerClient()).append("</td><td>").append(r.totalCalls()).append("</td><td>")
          .append(fmt(r.seconds(), 1)).append("</td><td class=\"throughput\">").append(fmt(r.throughput(), 0))
          .append("</td><td>").append(r.ko()).append("</td><td>").append(r.p50()).append("</td><td class=\"p99\">")
          .append(r.p99()).append("</td><td>").append(r.p999()).append("</td><td>")
          .append(r.ceilingRatio() == null ? "" : fmt(r.ceilingRatio(), 2)).append("</td><td>")
          .append(r.plainThroughput() == null ? "" : fmt(r.plainThroughput(), 0)).append("</td><td>")
          .append(r.gatlingVsPlain() == null ? "" : fmt(r.gatlingVsPlain(), 2)).append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /** A line chart as inline SVG: one line per framework and mode, levels evenly spaced on x. */
  private void chart(StringBuilder h, String id, String title, List<Row> rows,
                     java.util.function.ToDoubleFunction<Row> value) {
    int w = 640;
    int ht = 380;
    int left = 70;
    int right = 150;
    int top = 40;
    int bottom = 50;
    double max = rows.stream().mapToDouble(value).max().orElse(1);
    double yMax = niceCeiling(max);
    int plotW = w - left - right;
    int plotH = ht - top - bottom;
    h.append("<svg id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w)
        .append("\" height=\"").append(ht).append("\" viewBox=\"0 0 ").append(w).append(' ').append(ht)
        .append("\" role=\"img\" aria-label=\"").append(esc(title)).append("\">\n")
        .append("<text x=\"").append(w / 2).append("\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">")
        .append(esc(title)).append("</text>\n");
    for (int i = 0; i <= 5; i++) {
      double v = yMax * i / 5;
      double y = top + plotH - plotH * i / 5.0;
      h.append("<line x1=\"").append(left).append("\" x2=\"").append(left + plotW).append("\" y1=\"").append(fmt(y, 1))
          .append("\" y2=\"").append(fmt(y, 1)).append("\" stroke=\"#eee\"/>")
          .append("<text x=\"").append(left - 6).append("\" y=\"").append(fmt(y + 4, 1))
          .append("\" text-anchor=\"end\" font-size=\"11\">").append(fmt(v, 0)).append("</text>\n");
    }
    for (int i = 0; i < levels.size(); i++) {
      h.append("<text x=\"").append(fmt(xOf(i, left, plotW), 1)).append("\" y=\"").append(top + plotH + 18)
          .append("\" text-anchor=\"middle\" font-size=\"11\">").append(levels.get(i)).append("</text>\n");
    }
    h.append("<text x=\"").append(left + plotW / 2).append("\" y=\"").append(ht - 10)
        .append("\" text-anchor=\"middle\" font-size=\"12\">concurrent clients</text>\n");
    h.append("<rect x=\"").append(left).append("\" y=\"").append(top).append("\" width=\"").append(plotW)
        .append("\" height=\"").append(plotH).append("\" fill=\"none\" stroke=\"#999\"/>\n");
    int series = 0;
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        List<Row> line = rows.stream().filter(r -> r.framework().equals(framework) && r.mode().equals(mode.label()))
            .toList();
        if (line.isEmpty()) {
          continue;
        }
        String color = COLORS[series % COLORS.length];
        String label = modes.size() > 1 ? framework + " " + mode.label() : framework;
        StringBuilder points = new StringBuilder();
        for (Row r : line) {
          double x = xOf(levels.indexOf(r.clients()), left, plotW);
          double y = top + plotH - plotH * value.applyAsDouble(r) / yMax;
          points.append(fmt(x, 1)).append(',').append(fmt(y, 1)).append(' ');
          h.append("<circle cx=\"").append(fmt(x, 1)).append("\" cy=\"").append(fmt(y, 1)).append("\" r=\"3\" fill=\"")
              .append(color).append("\"><title>").append(esc(label)).append(", ").append(r.clients())
              .append(" clients: ").append(fmt(value.applyAsDouble(r), 0)).append("</title></circle>\n");
        }
        String dash = mode == InvocationMode.SYNC && modes.size() > 1 ? " stroke-dasharray=\"6 4\"" : "";
        h.append("<polyline class=\"series\" data-series=\"").append(esc(label)).append("\" fill=\"none\" stroke=\"")
            .append(color).append("\" stroke-width=\"2\"").append(dash).append(" points=\"")
            .append(points.toString().trim()).append("\"/>\n");
        int ly = top + 10 + series * 18;
        h.append("<line x1=\"").append(left + plotW + 12).append("\" x2=\"").append(left + plotW + 32).append("\" y1=\"")
            .append(ly).append("\" y2=\"").append(ly).append("\" stroke=\"").append(color).append("\" stroke-width=\"2\"")
            .append(dash).append("/><text x=\"").append(left + plotW + 36).append("\" y=\"").append(ly + 4)
            .append("\" font-size=\"12\">").append(esc(label)).append("</text>\n");
        series++;
      }
    }
    h.append("</svg>\n");
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

  private double xOf(int index, int left, int plotW) {
    return levels.size() == 1 ? left + plotW / 2.0 : left + 20 + (plotW - 40.0) * index / (levels.size() - 1);
  }

  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static void keyValues(StringBuilder h, String caption, Map<String, ?> values) {
    h.append("<table class=\"kv\"><caption>").append(esc(caption)).append("</caption>\n");
    values.forEach((k, v) -> h.append("<tr><td class=\"t\">").append(esc(k)).append("</td><td class=\"t\">")
        .append(esc(String.valueOf(v))).append("</td></tr>\n"));
    h.append("</table>\n");
  }

  // ---------------------------------------------------------------- context

  static Map<String, Object> machine() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    cpuModel().ifPresent(c -> m.put("cpu", c));
    m.put("memoryGiB", totalMemoryGiB());
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("note", "clients, servers and Gatling share this machine; compare ratios from one run rather than "
        + "absolute figures across machines");
    return m;
  }

  private static Optional<String> cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String totalMemoryGiB() {
    try {
      return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
          .map(l -> fmt(Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0, 1)).findFirst().orElse("?");
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  static Map<String, String> versions() {
    Map<String, String> v = new LinkedHashMap<>();
    Properties p = new Properties();
    try (InputStream in = ComparisonReport.class.getResourceAsStream("/rpc-load-lab-versions.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException ignored) {
      // reported as missing below
    }
    for (String name : new String[] {"gatling", "dubbo", "dubbo-serialization-kryo", "thrift", "grpc", "protobuf",
        "ice", "netty", "kryo"}) {
      v.put(name, p.getProperty(name, "?"));
    }
    return v;
  }

  private static String now() {
    return OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  static String fmt(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
