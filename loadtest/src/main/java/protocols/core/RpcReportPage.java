package protocols.core;

import static protocols.core.Html.esc;
import static protocols.core.Html.fmt;
import static protocols.core.Html.pct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Comparator;

/**
 * {@code rpc-report.html}: what Gatling's own report cannot show for RPC calls. Per level the true
 * calls/s over the level's own span, KOs and their reasons, µs percentiles, where the CPU went; a
 * percentile spectrum and throughput over time per group of levels; the validity warnings first.
 * Self-contained (inline SVG, no scripts) so it opens offline from a CI artifact.
 */
public final class RpcReportPage {
  public static final String FILE = "rpc-report.html";
  /**
   * "dubbo echo 20 clients (async)", "echo 5000 calls/s (sync)", "ramp to 20 clients (async)" or
   * "warm-up (sync)": the prefix and mode make a chart group.
   */
  private static final Pattern LEVEL = Pattern.compile(
      "^(.*?)(?:echo (\\d+ (?:clients|calls/s))|(ramp to \\d+ (?:clients|calls/s))|warm-up) \\((\\w+)\\)$");
  /** The spectrum's x axis ends at 99.99%: beyond it one call per ten thousand is all there is. */
  private static final double SPECTRUM_MAX = 99.99;

  private RpcReportPage() {}

  public static String render(String title, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                              Map<String, Object> run, boolean interrupted) {
    return render(title, requests, analysis, run, interrupted, null);
  }

  /**
   * The page of {@code requests}; with {@code merged} (the injectors' HTML of a merge), that replaces
   * this one run's introduction and comes before the levels.
   */
  public static String render(String title, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                              Map<String, Object> run, boolean interrupted, String merged) {
    StringBuilder h = Html.page(title);
    if (merged != null) {
      h.append(merged);
    } else {
      intro(h);
    }
    h.append("<p>Closed-loop levels (<em>N clients</em>) time each call from its send: a client waits for its reply, ")
        .append("so while the server stalls it sends nothing and its percentiles leave out the calls that would have ")
        .append("waited. Open-model levels (<em>calls/s</em>, <code>-Drates</code>) send on schedule regardless; in the ")
        .append("Levels table their latencies are service times (sent to reply), and the open-model table adds the ")
        .append("<em>response time</em>, from when the schedule said to send, which counts the waiting too. Gatling's ")
        .append("report gets each open-model call with its due time as its start.</p>\n");
    if (interrupted) {
      h.append("<p class=\"warn\">The run was interrupted: the figures cover only what ran.</p>\n");
    }
    Html.warnings(h, analysis.warnings(), analysis.cpuNotSampled());
    table(h, requests, analysis, merged == null ? "not sampled" : "in each injector's report");
    openTable(h, requests, analysis);
    koReasons(h, requests);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> faults = (List<Map<String, Object>>) run.getOrDefault("faults", List.of());
    faultTable(h, faults);
    charts(h, requests, faults);
    if (merged == null) {
      cpuNote(h);
    }
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> protocols = (List<Map<String, Object>>) run.getOrDefault("protocols", List.of());
    for (Map<String, Object> p : protocols) {
      Html.keyValues(h, "Protocol " + p.getOrDefault("framework", ""), p);
    }
    if (merged == null) {
      Html.keyValues(h, "Machine", RunContext.machine());
    }
    h.append("</body></html>\n");
    return h.toString();
  }

  private static void intro(StringBuilder h) {
    h.append("<p>Each level is one Gatling request name. Latencies are <strong>microseconds</strong>, timed by the ")
        .append("RPC component on the thread that receives the reply (HdrHistogram, OK calls only); ")
        .append("<em>calls/s</em> is the responses that ended within the level's sending span (its first call's ")
        .append("start to its last call's start, to the next tenth of a second: <em>time (s)</em>) per second of it, ")
        .append("so calls still in flight when it stopped sending cannot stretch it. Gatling's report, <a id=\"gatling-report\" href=\"index.html\">index.html</a>, keeps ")
        .append("whole milliseconds and divides each request's count by the whole run's length, so read its ")
        .append("<em>Cnt/s</em> and its percentiles for these calls here instead. Generated ").append(esc(Html.now()))
        .append("; the same figures are in <code>").append(LatencyRecorder.SUMMARY_FILE).append("</code>.</p>\n");
  }

  private static void cpuNote(StringBuilder h) {
    h.append("<p class=\"muted\">CPU columns: shares of the whole machine (all cores) during the level, from ")
        .append("/proc/stat and the processes' CPU times: <em>injector</em> is this Gatling JVM (clients included), ")
        .append("<em>servers</em> its child processes (the embedded servers; with <code>-Dinjectors</code> also the ")
        .append("coordinating JVM with its server and the other injectors), <em>rest</em> everything else that ")
        .append("was busy. Spread and trend: of the level's full 1-second throughput windows (see the warnings for ")
        .append("the limits).</p>\n");
  }

  private static void table(StringBuilder h, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis,
                            String noCpu) {
    h.append("<table id=\"levels\"><caption>Levels</caption>\n<tr><th>request</th><th>calls</th><th>KO</th>")
        .append("<th>time (s)</th><th>calls/s</th><th>OK calls/s</th><th>mean (µs)</th><th>p50 (µs)</th>")
        .append("<th>p90 (µs)</th><th>p99 (µs)</th><th>p99.9 (µs)</th><th>max (µs)</th><th>CPU injector</th>")
        .append("<th>CPU servers</th><th>CPU rest</th><th>CPU idle</th><th>spread</th><th>trend</th></tr>\n");
    for (LatencyRecorder.RequestStats r : requests) {
      RunAnalysis.Level level = analysis.level(r.name()).orElse(null);
      boolean flagged = analysis.warnings().stream().anyMatch(w -> w.request().equals(r.name()));
      CpuSampler.Shares cpu = level == null ? null : level.cpu();
      h.append("<tr data-request=\"").append(esc(r.name())).append('"').append(flagged ? " class=\"flagged\"" : "")
          .append("><td class=\"n\">").append(esc(r.name()))
          .append(level != null && level.warmup() ? "<br><span class=\"muted\">(not measured)</span>" : "")
          .append("</td><td class=\"count\">").append(r.count()).append("</td><td class=\"ko\">").append(r.ko())
          .append("</td><td>").append(fmt(r.durationSeconds(), 1)).append("</td><td class=\"throughput\">")
          .append(fmt(tenths(r.throughput()), 0)).append("</td><td>").append(fmt(tenths(r.okThroughput()), 0)).append("</td><td>")
          .append(fmt(r.mean(), 0)).append("</td><td class=\"p50\">").append(r.p50()).append("</td><td>").append(r.p90())
          .append("</td><td class=\"p99\">").append(r.p99()).append("</td><td>").append(r.p999()).append("</td><td>")
          .append(r.max()).append("</td>");
      if (cpu == null) {
        h.append("<td colspan=\"4\" class=\"muted\">").append(noCpu).append("</td>");
      } else {
        h.append("<td>").append(pct(cpu.injector())).append("</td><td>").append(pct(cpu.servers()))
            .append("</td><td class=\"cpu-rest\">").append(pct(cpu.rest())).append("</td><td>").append(pct(cpu.idle()))
            .append("</td>");
      }
      if (level == null || level.fullWindows() < 2) {
        h.append("<td colspan=\"2\" class=\"muted\">too short</td>");
      } else {
        h.append("<td>").append(pct(level.spread())).append("</td><td>").append(level.trend() >= 0 ? "+" : "")
            .append(pct(level.trend())).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  /** As rpc-summary.json holds it (one decimal), so the page's whole number is the JSON's rounded. */
  private static double tenths(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private static void koReasons(StringBuilder h, List<LatencyRecorder.RequestStats> requests) {
    List<LatencyRecorder.RequestStats> failed = requests.stream().filter(r -> r.ko() > 0).toList();
    if (failed.isEmpty()) {
      return;
    }
    h.append("<table id=\"ko-reasons\"><caption>KO reasons</caption>\n<tr><th>request</th><th>message</th>")
        .append("<th>count</th></tr>\n");
    for (LatencyRecorder.RequestStats r : failed) {
      r.koReasons().forEach((message, n) -> h.append("<tr><td class=\"t\">").append(esc(r.name()))
          .append("</td><td class=\"t\">").append(esc(message)).append("</td><td>").append(n).append("</td></tr>\n"));
    }
    h.append("</table>\n");
  }

  private static void faultTable(StringBuilder h, List<Map<String, Object>> faults) {
    if (faults.isEmpty()) {
      return;
    }
    boolean apart = faults.stream().anyMatch(f -> !Boolean.FALSE.equals(f.get("callsApart")));
    h.append("<table id=\"faults\"><caption>Injected faults (-Dfaults); calls from the first fault until ")
        .append(Faults.RECOVERY_BOUND.toSeconds()).append(" s after the server is back ")
        .append(apart ? "are the level's <em>" + esc(Faults.SUFFIX.trim()) + "</em> row"
            : "stay in the level's own row (-DfaultsInLevel=true)")
        .append("</caption>\n<tr><th>level</th><th>faults (planned s → done s)")
        .append("</th><th>KO during fault</th><th>OK during fault</th><th>first OK after the server is back (ms)</th>")
        .append("<th>steady again after (ms)</th><th>recovered within ").append(Faults.RECOVERY_BOUND.toSeconds())
        .append(" s</th></tr>\n");
    for (Map<String, Object> f : faults) {
      StringBuilder events = new StringBuilder();
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> list = (List<Map<String, Object>>) f.get("events");
      for (Map<String, Object> e : list) {
        events.append(events.length() == 0 ? "" : ", ").append(e.get("action")).append(' ').append(e.get("plannedSeconds"))
            .append(" → ").append(e.get("doneSeconds")).append(e.containsKey("error") ? " (" + e.get("error") + ")" : "");
      }
      h.append("<tr data-fault-request=\"").append(esc(String.valueOf(f.get("request")))).append("\"><td class=\"n\">")
          .append(esc(String.valueOf(f.get("request")))).append("</td><td class=\"t\">").append(esc(events.toString()))
          .append("</td><td>").append(f.get("koDuringFault")).append("</td><td>").append(f.get("okDuringFault"))
          .append("</td><td class=\"first-ok\">").append(orDash(f.get("firstOkAfterRestoreMillis")))
          .append("</td><td>").append(orDash(f.get("steadyAfterRestoreMillis"))).append("</td><td class=\"recovered\">")
          .append(f.get("recovered") == null ? "not seen" : Boolean.TRUE.equals(f.get("recovered")) ? "yes"
              : "<span class=\"warn\">no</span>")
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static String orDash(Object v) {
    return v == null ? "–" : String.valueOf(v);
  }

  /** Per group of levels (a framework and mode): the latency spectrum and the throughput over time. */
  private static void charts(StringBuilder h, List<LatencyRecorder.RequestStats> requests,
                             List<Map<String, Object>> faults) {
    Map<String, List<LatencyRecorder.RequestStats>> groups = new LinkedHashMap<>();
    for (LatencyRecorder.RequestStats r : requests) {
      if (r.name().endsWith(Faults.SUFFIX)) {
        continue; // its calls are scattered over the fault window: shown as the gap in its level's line
      }
      Matcher m = LEVEL.matcher(r.name());
      String group = m.matches() ? (m.group(1) + m.group(4)).trim() : "all requests";
      groups.computeIfAbsent(group, g -> new ArrayList<>()).add(r);
    }
    int i = 0;
    for (Map.Entry<String, List<LatencyRecorder.RequestStats>> g : groups.entrySet()) {
      h.append("<h2>").append(esc(g.getKey())).append("</h2>\n<div>\n");
      List<LatencyRecorder.RequestStats> open = g.getValue().stream()
          .filter(r -> r.isOpen() && !EchoRun.notMeasured(r.name())).toList();
      if (!open.isEmpty()) {
        h.append(curve("curve-" + i, "Latency against throughput, " + g.getKey(), List.of(Map.entry("", open)))
            .render());
      }
      h.append(spectrum("spectrum-" + i, g.getKey(), g.getValue()).render());
      SvgChart throughput = throughputOverTime("throughput-" + i, g.getKey(), g.getValue());
      for (Map<String, Object> f : faults) {
        if (g.getValue().stream().anyMatch(r -> r.name().equals(f.get("request")))) {
          double from = ((Number) f.get("faultStartSeconds")).doubleValue();
          Object back = f.get("restoredSeconds");
          throughput = throughput.band(from, back == null ? from + 3600 : ((Number) back).doubleValue());
        }
      }
      h.append(throughput.render());
      h.append("</div>\n");
      i++;
    }
  }

  /** x: percentile as -log10(1 - p), so 90, 99, 99.9 and 99.99 are evenly spaced; y: µs on a log scale. */
  static SvgChart spectrum(String id, String group, List<LatencyRecorder.RequestStats> levels) {
    List<SvgChart.Tick> ticks = List.of(new SvgChart.Tick(0, "0%"), new SvgChart.Tick(1, "90%"),
        new SvgChart.Tick(2, "99%"), new SvgChart.Tick(3, "99.9%"), new SvgChart.Tick(4, "99.99%"));
    long min = Long.MAX_VALUE;
    long max = 1;
    for (LatencyRecorder.RequestStats r : levels) {
      if (EchoRun.notMeasured(r.name())) {
        continue;
      }
      for (LatencyRecorder.SpectrumPoint p : plotted(r)) {
        if (p.percentile() > SPECTRUM_MAX) {
          continue;
        }
        min = Math.min(min, Math.max(1, p.micros()));
        max = Math.max(max, p.micros());
      }
    }
    SvgChart chart = SvgChart.of(id, "Latency by percentile, " + group,
        new SvgChart.Axis("percentile (log scale: each step is 10x rarer)", 0, 4, false, ticks),
        SvgChart.Axis.log("µs (log scale)", min == Long.MAX_VALUE ? 1 : min, max));
    for (LatencyRecorder.RequestStats r : levels) {
      if (EchoRun.notMeasured(r.name()) || plotted(r).isEmpty()) {
        continue;
      }
      List<double[]> points = new ArrayList<>();
      for (LatencyRecorder.SpectrumPoint p : plotted(r)) {
        if (p.percentile() <= SPECTRUM_MAX) {
          points.add(new double[] {-Math.log10(1 - p.percentile() / 100), Math.max(1, p.micros())});
        }
      }
      chart = chart.with(new SvgChart.Series(label(r.name()), points, false));
    }
    return chart;
  }

  /** The spectrum drawn for a level: an open-model level's response time, a closed level's latency. */
  private static List<LatencyRecorder.SpectrumPoint> plotted(LatencyRecorder.RequestStats r) {
    return r.isOpen() ? r.open().responseSpectrum() : r.spectrum();
  }

  /**
   * The latency-throughput curve: response-time p50 (dashed) and p99 against the achieved OK calls/s
   * of each open-model level, one pair of lines (one colour) per named group.
   */
  static SvgChart curve(String id, String title, List<Map.Entry<String, List<LatencyRecorder.RequestStats>>> groups) {
    double maxX = 1;
    long minY = Long.MAX_VALUE;
    long maxY = 1;
    for (Map.Entry<String, List<LatencyRecorder.RequestStats>> g : groups) {
      for (LatencyRecorder.RequestStats r : g.getValue()) {
        maxX = Math.max(maxX, r.okThroughput());
        if (r.open().responseP50() > 0) {
          minY = Math.min(minY, r.open().responseP50());
        }
        maxY = Math.max(maxY, r.open().responseP99());
      }
    }
    SvgChart chart = SvgChart.of(id, title, SvgChart.Axis.linear("achieved OK calls/s", maxX),
        SvgChart.Axis.log("response time, µs (log scale)", minY == Long.MAX_VALUE ? 1 : minY, maxY));
    int color = 0;
    for (Map.Entry<String, List<LatencyRecorder.RequestStats>> g : groups) {
      List<LatencyRecorder.RequestStats> levels = g.getValue().stream()
          .sorted(Comparator.comparingDouble(r -> r.open().offered())).toList();
      String who = g.getKey().isEmpty() ? "" : g.getKey() + " ";
      chart = chart.with(new SvgChart.Series(who + "p99", levels.stream()
          .map(r -> new double[] {r.okThroughput(), Math.max(1, r.open().responseP99())}).toList(), false, color));
      chart = chart.with(new SvgChart.Series(who + "p50", levels.stream()
          .map(r -> new double[] {r.okThroughput(), Math.max(1, r.open().responseP50())}).toList(), true, color));
      color++;
    }
    return chart;
  }

  /** Open-model levels: offered against achieved, drops, send lag, both latencies, and the saturation verdict. */
  private static void openTable(StringBuilder h, List<LatencyRecorder.RequestStats> requests, RunAnalysis analysis) {
    List<LatencyRecorder.RequestStats> open = requests.stream().filter(LatencyRecorder.RequestStats::isOpen).toList();
    if (open.isEmpty()) {
      return;
    }
    h.append("<table id=\"open-levels\"><caption>Open-model levels (-Drates): calls sent on schedule; <em>response")
        .append("</em> is timed from when the schedule said to send, <em>service</em> from when the call was sent, ")
        .append("<em>send lag</em> is sent minus due (µs)</caption>\n<tr><th>request</th><th>offered calls/s</th>")
        .append("<th>achieved OK calls/s</th><th>dropped</th><th>send lag p50</th><th>send lag p99</th><th>send lag max</th>")
        .append("<th>service p50</th><th>service p99</th><th>response p50</th><th>response p99</th>")
        .append("<th>response p99.9</th><th>response max</th><th>saturated</th></tr>\n");
    for (LatencyRecorder.RequestStats r : open) {
      LatencyRecorder.Open o = r.open();
      Saturation sat = analysis.level(r.name()).map(RunAnalysis.Level::saturation).orElse(null);
      h.append("<tr data-open-request=\"").append(esc(r.name())).append("\"><td class=\"n\">").append(esc(r.name()))
          .append(EchoRun.notMeasured(r.name()) ? "<br><span class=\"muted\">(not measured)</span>" : "")
          .append("</td><td class=\"offered\">").append(fmt(o.offered(), 0)).append("</td><td class=\"achieved\">")
          .append(fmt(r.okThroughput(), 0)).append("</td><td class=\"dropped\">").append(o.dropped())
          .append("</td><td class=\"lag-p50\">").append(o.lagP50()).append("</td><td>").append(o.lagP99())
          .append("</td><td>").append(o.lagMax()).append("</td><td>")
          .append(r.p50()).append("</td><td class=\"service-p99\">").append(r.p99()).append("</td><td>")
          .append(o.responseP50()).append("</td><td class=\"response-p99\">").append(o.responseP99())
          .append("</td><td>").append(o.responseP999()).append("</td><td>").append(o.responseMax())
          .append("</td><td class=\"saturated t\"").append(sat == null ? ">" : " title=\"" + esc(sat.reason()) + "\">")
          .append(sat == null ? "–" : sat.saturated() ? "<span class=\"warn\">yes: " + esc(sat.limit()) + "</span>"
              : "no").append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (LatencyRecorder.RequestStats r : open) {
      analysis.level(r.name()).map(RunAnalysis.Level::saturation).filter(Saturation::saturated).ifPresent(sat ->
          h.append("<p class=\"saturation\" data-request=\"").append(esc(r.name())).append("\"><strong>")
              .append(esc(r.name())).append(" saturated (").append(esc(sat.limit())).append(")</strong>: ")
              .append(esc(sat.reason())).append(".</p>\n"));
    }
  }

  /** Completions per 1-second window from each level's start; the last window is partial, so it is left out. */
  static SvgChart throughputOverTime(String id, String group, List<LatencyRecorder.RequestStats> levels) {
    double maxY = 1;
    double maxX = 1;
    for (LatencyRecorder.RequestStats r : levels) {
      long[] w = RunAnalysis.fullWindows(r);
      for (long v : w) {
        maxY = Math.max(maxY, v);
      }
      maxX = Math.max(maxX, w.length);
    }
    SvgChart chart = SvgChart.of(id, "Calls/s over each level, " + group,
        linearTicks("seconds since the level started", maxX), SvgChart.Axis.linear("calls/s (1-second windows)", maxY));
    for (LatencyRecorder.RequestStats r : levels) {
      long[] w = RunAnalysis.fullWindows(r);
      List<double[]> points = new ArrayList<>();
      for (int s = 0; s < w.length; s++) {
        points.add(new double[] {s + 0.5, w[s]});
      }
      chart = chart.with(new SvgChart.Series(label(r.name()), points, EchoRun.notMeasured(r.name())));
    }
    return chart;
  }

  private static SvgChart.Axis linearTicks(String label, double max) {
    SvgChart.Axis a = SvgChart.Axis.linear(label, max);
    return new SvgChart.Axis(label, 0, a.max(), false, a.ticks());
  }

  private static String label(String request) {
    Matcher m = LEVEL.matcher(request);
    if (!m.matches()) {
      return request;
    }
    return m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : "warm-up";
  }
}
