package protocols.nightly;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import protocols.core.Html;
import protocols.core.InvocationMode;
import protocols.core.SvgChart;

/**
 * trend.html: calls/s and p99 of every framework and level over the nights, nights that failed a gate
 * shaded, and a table linking each night's run. Self-contained, like the run's own pages.
 */
final class TrendPage {
  private TrendPage() {}

  static String render(List<JsonNode> nights, List<String> frameworks, List<Integer> levels,
                       List<InvocationMode> modes) {
    StringBuilder h = Html.page("Nightly trend");
    h.append("<p>Generated ").append(Html.esc(Html.now())).append(" from ").append(nights.size())
        .append(nights.size() == 1 ? " night" : " nights")
        .append(". Calls/s are OK calls per second of each level's own span; latencies are µs, from the lab's own"
            + " histograms. A shaded night failed at least one gate (its run's nightly-gates.xml says which).</p>\n");
    if (nights.size() <= 1) {
      h.append("<p id=\"first-night\">This is the first night: nothing to compare with yet.</p>\n");
    }
    h.append("<table id=\"nights\"><caption>Nights</caption>\n<tr><th>#</th><th class=\"t\">date</th>"
        + "<th class=\"t\">commit</th><th class=\"t\">gates</th><th class=\"t\">run</th></tr>\n");
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < nights.size(); i++) {
      JsonNode n = nights.get(i);
      boolean failed = n.path("failed").asBoolean();
      labels.add("#" + (i + 1));
      String run = n.path("run").asText();
      h.append("<tr class=\"night ").append(failed ? "failed flagged" : "passed").append("\" data-night=\"")
          .append(i + 1).append("\"><td>").append(i + 1).append("</td><td class=\"t\">")
          .append(Html.esc(n.path("date").asText())).append("</td><td class=\"t\">")
          .append(Html.esc(n.path("commit").asText())).append("</td><td class=\"t\">")
          .append(failed ? "FAILED" : "passed").append("</td><td class=\"t\">");
      if (!run.isEmpty()) {
        h.append("<a href=\"").append(Html.esc(Paths.get(run, "rpc-report.html").toUri().toString())).append("\">")
            .append(Html.esc(Paths.get(run).getFileName().toString())).append("</a>");
      }
      h.append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        h.append("<h2>").append(Html.esc(framework)).append(" (").append(mode.label()).append(")</h2>\n");
        h.append(chart(nights, labels, framework, mode, levels, "callsPerSecond", "calls/s")).append('\n');
        h.append(chart(nights, labels, framework, mode, levels, "p99", "p99 µs")).append('\n');
      }
    }
    return h.append("</body></html>\n").toString();
  }

  private static String chart(List<JsonNode> nights, List<String> labels, String framework, InvocationMode mode,
                              List<Integer> levels, String field, String what) {
    double max = 1;
    double min = Double.MAX_VALUE;
    List<SvgChart.Series> series = new ArrayList<>();
    for (int clients : levels) {
      String key = Nightly.key(framework, clients, mode.label());
      List<double[]> points = new ArrayList<>();
      for (int i = 0; i < nights.size(); i++) {
        for (JsonNode level : nights.get(i).path("levels")) {
          if (key.equals(level.path("key").asText()) && level.has(field)) {
            double v = level.get(field).asDouble();
            points.add(new double[] {i, v});
            max = Math.max(max, v);
            min = Math.min(min, v);
          }
        }
      }
      series.add(new SvgChart.Series(clients + " clients", points, false));
    }
    boolean p99 = field.equals("p99");
    SvgChart.Axis y = p99 ? SvgChart.Axis.log(what, min == Double.MAX_VALUE ? 1 : min, max)
        : SvgChart.Axis.linear(what, max);
    SvgChart chart = SvgChart.of("trend-" + framework + "-" + mode.label() + "-" + field,
        framework + " " + what + " per night", SvgChart.Axis.categories("night", labels), y);
    for (SvgChart.Series s : series) {
      chart = chart.with(s);
    }
    for (int i = 0; i < nights.size(); i++) {
      if (nights.get(i).path("failed").asBoolean()) {
        chart = chart.band(i - 0.4, i + 0.4);
      }
    }
    return chart.render();
  }
}
