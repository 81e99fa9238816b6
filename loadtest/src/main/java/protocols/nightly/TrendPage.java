package protocols.nightly;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import protocols.report.Pages;
import protocols.report.SvgChart;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;

/**
 * trend.html ({@code templates/trend.peb}): calls/s and p99 of every framework and level over the
 * nights, nights that failed a gate shaded, and a table linking each night's run.
 */
final class TrendPage {
  private TrendPage() {}

  static String render(List<History.Night> nights, List<String> frameworks, List<Integer> levels,
                       List<InvocationMode> modes) {
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < nights.size(); i++) {
      History.Night n = nights.get(i);
      labels.add("#" + (i + 1));
      Map<String, Object> row = new HashMap<>();
      row.put("number", i + 1);
      row.put("night", n);
      boolean hasRun = n.run() != null && !n.run().isEmpty();
      row.put("href", hasRun ? Paths.get(n.run(), "rpc-report.html").toUri().toString() : null);
      row.put("folder", hasRun ? Paths.get(n.run()).getFileName().toString() : null);
      rows.add(row);
    }
    List<Map<String, Object>> sections = new ArrayList<>();
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        sections.add(Map.of("title", framework + " (" + mode.label() + ")", "svgs", List.of(
            chart(nights, labels, framework, mode, levels, false), chart(nights, labels, framework, mode, levels, true))));
      }
    }
    Map<String, Object> model = new HashMap<>();
    model.put("title", "Nightly trend");
    model.put("generated", Pages.now());
    model.put("nights", rows);
    model.put("sections", sections);
    return Pages.render("trend", model);
  }

  private static String chart(List<History.Night> nights, List<String> labels, String framework,
                              InvocationMode mode, List<Integer> levels, boolean p99) {
    String what = p99 ? "p99 µs" : "calls/s";
    double max = 1;
    double min = Double.MAX_VALUE;
    List<SvgChart.Series> series = new ArrayList<>();
    for (int clients : levels) {
      Level level = Level.closed(framework, clients, mode);
      List<double[]> points = new ArrayList<>();
      for (int i = 0; i < nights.size(); i++) {
        for (History.NightLevel l : nights.get(i).levels()) {
          if (l.is(level)) {
            double v = p99 ? l.p99() : l.callsPerSecond();
            points.add(new double[] {i, v});
            max = Math.max(max, v);
            min = Math.min(min, v);
          }
        }
      }
      series.add(new SvgChart.Series(level.label(), points, false));
    }
    SvgChart.Axis y = p99 ? SvgChart.Axis.log(what, min == Double.MAX_VALUE ? 1 : min, max)
        : SvgChart.Axis.linear(what, max);
    SvgChart chart = SvgChart.of("trend-" + framework + "-" + mode.label() + "-" + (p99 ? "p99" : "callsPerSecond"),
        framework + " " + what + " per night", SvgChart.Axis.categories("night", labels), y);
    for (SvgChart.Series s : series) {
      chart = chart.with(s);
    }
    for (int i = 0; i < nights.size(); i++) {
      if (nights.get(i).failed()) {
        chart = chart.band(i - 0.4, i + 0.4);
      }
    }
    return chart.render();
  }
}
