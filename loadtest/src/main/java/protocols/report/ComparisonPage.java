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
  public record Run(List<String> frameworks, List<InvocationMode> modes, List<Integer> levels, String ceiling,
                    Map<String, Object> machine, Map<String, String> versions, Map<String, String> parameters,
                    boolean interrupted) {
  }

  /**
   * The frameworks run both directly and through their registry, and those run in plaintext and over
   * TLS, with their levels side by side.
   */
  public record Discovery(List<Comparison.DiscoveryPair> pairs, List<Comparison.DiscoveryRow> rows,
                          List<Comparison.TlsPair> tlsPairs, List<Comparison.TlsRow> tlsRows) {
  }

  public static String render(Run run, List<Comparison.Row> rows, List<Comparison.RateRow> rateRows,
                              List<Comparison.Capacity> capacities, Discovery discovery, List<RequestStats> requests,
                              List<Warning> warnings, Optional<String> cpuNotSampled,
                              List<RunAnalysis.Assessment> notJudged) {
    Map<String, Object> model = new HashMap<>();
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
      results.add(Map.of("row", r, "flagged",
          warnings.stream().anyMatch(w -> w.request().equals(r.level().name()))));
    }
    model.put("rows", results);
    List<Map<String, Object>> discoveryRows = new ArrayList<>();
    for (Comparison.DiscoveryRow r : discovery.rows()) {
      discoveryRows.add(Map.of("row", r, "flagged", warnings.stream().anyMatch(w -> w.request()
          .equals(r.direct().level().name()) || w.request().equals(r.viaRegistry().level().name()))));
    }
    model.put("discoveryRows", discoveryRows);
    model.put("discoveryPairs", discovery.pairs());
    List<Map<String, Object>> tlsRows = new ArrayList<>();
    for (Comparison.TlsRow r : discovery.tlsRows()) {
      tlsRows.add(Map.of("row", r, "flagged", warnings.stream().anyMatch(w -> w.request()
          .equals(r.plaintext().level().name()) || w.request().equals(r.encrypted().level().name()))));
    }
    model.put("tlsRows", tlsRows);
    model.put("tlsPairs", discovery.tlsPairs());
    List<String> charts = new ArrayList<>();
    if (!rows.isEmpty()) {
      charts.add(chart(run, "throughput-chart", "Throughput (OK calls/s) against concurrent clients", rows,
          Comparison.Row::throughput));
      charts.add(chart(run, "p99-chart", "p99 latency (µs) against concurrent clients", rows, r -> (double) r.p99()));
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

  /** One line per framework and mode, levels evenly spaced on x. */
  private static String chart(Run run, String id, String title, List<Comparison.Row> rows,
                              ToDoubleFunction<Comparison.Row> value) {
    SvgChart chart = SvgChart.of(id, title,
        SvgChart.Axis.categories("concurrent clients", run.levels().stream().map(String::valueOf).toList()),
        SvgChart.Axis.linear("", rows.stream().mapToDouble(value).max().orElse(1)));
    for (String framework : run.frameworks()) {
      for (InvocationMode mode : run.modes()) {
        List<double[]> points = rows.stream()
            .filter(r -> r.level().framework().equals(framework) && r.level().mode() == mode)
            .map(r -> new double[] {run.levels().indexOf(r.clients()), value.applyAsDouble(r)}).toList();
        if (!points.isEmpty()) {
          chart = chart.with(new SvgChart.Series(who(run, framework, mode), points,
              mode == InvocationMode.SYNC && run.modes().size() > 1));
        }
      }
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
