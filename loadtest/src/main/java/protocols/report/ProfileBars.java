package protocols.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import protocols.stats.profile.Component;
import protocols.stats.profile.LevelProfile;
import protocols.stats.profile.Profiles;

/** The page's view of a run's profiles: one stacked bar and one row of cells per level and side. */
public record ProfileBars(String profiler, List<Legend> components, List<Row> rows, List<String> problems) {
  private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#17becf", "#d62728", "#8c564b",
      "#9467bd", "#e377c2", "#bcbd22", "#7f7f7f"};

  public record Legend(String label, String meaning, String color) {
  }

  public record Segment(String label, double percent, Double usPerCall, String color) {
  }

  public record Row(String request, String side, String flameGraph, long samples, Double harness,
                    List<Segment> segments, List<Segment> cells) {
  }

  public static ProfileBars of(Profiles profiles) {
    List<Legend> legend = new ArrayList<>();
    for (Component c : Component.values()) {
      legend.add(new Legend(c.label(), c.meaning(), COLORS[c.ordinal() % COLORS.length]));
    }
    List<Row> rows = new ArrayList<>();
    for (LevelProfile p : profiles.levels()) {
      List<Segment> cells = new ArrayList<>();
      for (Component c : Component.values()) {
        double share = p.shares().getOrDefault(c.label(), 0.0);
        Map<String, Double> perCall = p.cpuUsPerCall();
        cells.add(new Segment(c.label(), 100 * share, perCall == null ? null : perCall.get(c.label()),
            COLORS[c.ordinal() % COLORS.length]));
      }
      rows.add(new Row(p.request(), p.side().label(), p.flameGraph(), p.samples(), p.harnessShare() == null ? null
          : 100 * p.harnessShare(), cells.stream().filter(s -> s.percent() > 0).toList(), cells));
    }
    return new ProfileBars(profiles.profiler(), legend, rows, profiles.problems());
  }
}
