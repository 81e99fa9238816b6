package protocols.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import protocols.load.SaturationCheck;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;
import protocols.load.RunAnalysis;
import protocols.stats.RequestStats;
import protocols.stats.Warning;

/**
 * {@code comparison.html} ({@code templates/comparison.peb}): the shootout's table, its throughput and
 * p99 charts, the open-model capacity and the latency-throughput curves. Self-contained, like every page.
 */
public final class ComparisonPage {
  private ComparisonPage() {}

  /** What the page shows: the frameworks and modes in their order, the levels, and the run's context. */
  /** @param payloads the variants that are a framework at a payload size (-Dpayload); empty without */
  public record Run(List<String> frameworks, List<InvocationMode> modes, List<Integer> levels, String ceiling,
                    Map<String, Object> machine, Map<String, String> versions, Map<String, String> parameters,
                    boolean interrupted, List<Comparison.PayloadPoint> payloads) {
    public Run {
      payloads = List.copyOf(payloads);
    }

    public Run(List<String> frameworks, List<InvocationMode> modes, List<Integer> levels, String ceiling,
               Map<String, Object> machine, Map<String, String> versions, Map<String, String> parameters,
               boolean interrupted) {
      this(frameworks, modes, levels, ceiling, machine, versions, parameters, interrupted, List.of());
    }
  }

  public static String render(Run run, List<Comparison.Row> rows, List<Comparison.RateRow> rateRows,
                              List<Comparison.Capacity> capacities, List<TwoWays> twoWays,
                              List<TwoWays.Row> twoWaysRows, List<RequestStats> requests,
                              List<Warning> warnings, Optional<String> cpuNotSampled,
                              List<RunAnalysis.Assessment> notJudged, List<Comparison.Pair> pairs,
                              List<Comparison.Resolution> resolutions,
                              protocols.stats.profile.Profiles profiles) {
    Map<String, Object> model = new HashMap<>();
    model.put("profiles", profiles == null ? null : ProfileBars.of(profiles));
    model.put("title", "RPC shootout");
    model.put("generated", Pages.now());
    model.put("ceiling", run.ceiling());
    model.put("rpcReport", RpcReportPage.FILE);
    model.put("interrupted", run.interrupted());
    model.put("warnings", warnings);
    model.put("cpuNotSampled", cpuNotSampled.orElse(null));
    model.put("notJudged", notJudged);
    List<Map<String, Object>> results = new ArrayList<>();
    for (Comparison.Row r : rows) {
      List<String> names = new ArrayList<>(List.of(r.level().name()));
      for (int t = 1; r.spread() != null && t <= r.spread().trials(); t++) {
        names.add(r.level().trial(t).name());
      }
      results.add(Map.of("row", r, "flagged", warnings.stream().anyMatch(w -> names.contains(w.request()))));
    }
    model.put("rows", results);
    model.put("trials", rows.stream().filter(r -> r.spread() != null).mapToInt(r -> r.spread().trials()).max()
        .orElse(1));
    model.put("pairs", pairs);
    model.put("resolutions", resolutions);
    model.put("noiseFloor", Math.round(protocols.stats.TrialStats.NOISE_FLOOR * 100));
    model.put("p99NoiseFloor", Math.round(protocols.stats.TrialStats.P99_NOISE_FLOOR * 100));
    for (TwoWays.Contrast contrast : TwoWays.Contrast.values()) {
      List<Map<String, Object>> pairRows = new ArrayList<>();
      for (TwoWays.Row r : twoWaysRows) {
        if (r.contrast() == contrast) {
          pairRows.add(Map.of("row", r, "flagged",
              warnings.stream().anyMatch(w -> r.levelNames().contains(w.request()))));
        }
      }
      model.put(contrast.id() + "Rows", pairRows);
      model.put(contrast.id() + "Pairs", twoWays.stream().filter(p -> p.contrast() == contrast).toList());
    }
    List<String> charts = new ArrayList<>();
    if (!rows.isEmpty()) {
      charts.add(chart(run, "throughput-chart", "Throughput (OK calls/s) against concurrent clients", rows,
          Comparison.Row::throughput, Comparison.Spread::throughput));
      charts.add(chart(run, "p99-chart", "p99 latency (µs) against concurrent clients",
          rows.stream().filter(r -> r.p99() != null).toList(), r -> (double) r.p99(), // no OK call: no point
          Comparison.Spread::p99));
    }
    if (!run.payloads().isEmpty()) {
      for (int clients : run.levels()) {
        charts.add(payloadChart(run, rows, clients, "payload-throughput-" + clients, "Throughput (OK calls/s) against"
            + " payload size at " + clients + " clients", Comparison.Row::throughput, Comparison.Spread::throughput));
        charts.add(payloadChart(run, rows.stream().filter(r -> r.p99() != null).toList(), clients,
            "payload-p99-" + clients, "p99 latency (µs) against payload size at " + clients + " clients",
            r -> (double) r.p99(), Comparison.Spread::p99));
      }
    }
    model.put("charts", charts);
    model.put("rateRows", rateRows);
    model.put("capacities", capacities);
    model.put("tolerance", Math.round(SaturationCheck.RATE_TOLERANCE * 100));
    model.put("curve", rateRows.isEmpty() ? null : curve(run, requests));
    model.put("machine", run.machine());
    model.put("versions", run.versions());
    model.put("parameters", run.parameters());
    return Pages.render("comparison", model);
  }

  /** What a line is called: its framework, and its mode when the run had both. */
  private static String who(Run run, String framework, InvocationMode mode) {
    return run.modes().size() > 1 ? framework + " " + mode.label() : framework;
  }

  /** One line per framework and mode, levels evenly spaced on x; over trials, each point's 95% interval as an error bar. */
  private static String chart(Run run, String id, String title, List<Comparison.Row> rows,
                              ToDoubleFunction<Comparison.Row> value,
                              java.util.function.Function<Comparison.Spread, protocols.stats.Interval> interval) {
    java.util.function.Function<Comparison.Row, double[]> bar = r -> {
      protocols.stats.Interval i = r.spread() == null ? null : interval.apply(r.spread());
      return i == null ? new double[] {Double.NaN, Double.NaN} : new double[] {i.lo(), i.hi()};
    };
    double top = rows.stream().mapToDouble(r -> Math.max(value.applyAsDouble(r),
        Double.isFinite(bar.apply(r)[1]) ? bar.apply(r)[1] : 0)).max().orElse(1);
    SvgChart chart = SvgChart.of(id, title,
        SvgChart.Axis.categories("concurrent clients", run.levels().stream().map(String::valueOf).toList()),
        SvgChart.Axis.linear("", top));
    for (String framework : run.frameworks()) {
      for (InvocationMode mode : run.modes()) {
        List<double[]> points = rows.stream()
            .filter(r -> r.level().framework().equals(framework) && r.level().mode() == mode)
            .map(r -> new double[] {run.levels().indexOf(r.clients()), value.applyAsDouble(r), bar.apply(r)[0],
                bar.apply(r)[1]}).toList();
        if (!points.isEmpty()) {
          chart = chart.with(new SvgChart.Series(who(run, framework, mode), points,
              mode == InvocationMode.SYNC && run.modes().size() > 1));
        }
      }
    }
    return chart.render();
  }

  /**
   * One line per framework over its payload sizes (log x: bytes of the order's name) at {@code clients},
   * in the run's first mode; over trials, each point's 95% interval as an error bar.
   */
  private static String payloadChart(Run run, List<Comparison.Row> rows, int clients, String id, String title,
                                     ToDoubleFunction<Comparison.Row> value,
                                     java.util.function.Function<Comparison.Spread, protocols.stats.Interval> interval) {
    InvocationMode mode = run.modes().get(0);
    List<Comparison.PayloadPoint> points = run.payloads();
    double min = points.stream().mapToInt(Comparison.PayloadPoint::bytes).min().orElse(1);
    double max = points.stream().mapToInt(Comparison.PayloadPoint::bytes).max().orElse(2);
    double top = 1;
    List<SvgChart.Series> series = new ArrayList<>();
    for (String framework : points.stream().map(Comparison.PayloadPoint::framework).distinct().toList()) {
      List<double[]> line = new ArrayList<>();
      for (Comparison.PayloadPoint p : points.stream().filter(p -> p.framework().equals(framework)).toList()) {
        for (Comparison.Row r : rows) {
          if (r.level().framework().equals(p.variant()) && r.clients() == clients && r.level().mode() == mode) {
            protocols.stats.Interval i = r.spread() == null ? null : interval.apply(r.spread());
            double v = value.applyAsDouble(r);
            line.add(new double[] {p.bytes(), v, i == null ? Double.NaN : i.lo(), i == null ? Double.NaN : i.hi()});
            top = Math.max(top, i == null || !Double.isFinite(i.hi()) ? v : Math.max(v, i.hi()));
          }
        }
      }
      if (!line.isEmpty()) {
        series.add(new SvgChart.Series(framework, line, false));
      }
    }
    SvgChart chart = SvgChart.of(id, title, SvgChart.Axis.log("payload (bytes of the order's name)", min, max), SvgChart.Axis.linear("", top));
    for (SvgChart.Series s : series) {
      chart = chart.with(s);
    }
    return chart.render();
  }

  private static String curve(Run run, List<RequestStats> requests) {
    List<Map.Entry<String, List<RequestStats>>> groups = new ArrayList<>();
    for (String framework : run.frameworks()) {
      for (InvocationMode mode : run.modes()) {
        List<RequestStats> open = openLevels(requests, framework, mode);
        if (!open.isEmpty()) {
          groups.add(Map.entry(who(run, framework, mode), open));
        }
      }
    }
    return Charts.curve("curve-chart", "Response time (p99 solid, p50 dashed) against achieved calls/s", groups)
        .render();
  }

  /** One framework's open-model levels in one mode (not their fault windows), in offered-rate order. */
  public static List<RequestStats> openLevels(List<RequestStats> requests, String framework, InvocationMode mode) {
    return requests.stream().filter(r -> r.isOpen() && r.level() != null && r.level().kind() == Level.Kind.RATE
            && !r.level().duringFault() && framework.equals(r.level().framework()) && r.level().mode() == mode)
        .sorted(java.util.Comparator.comparingDouble(r -> r.open().offered())).toList();
  }
}
