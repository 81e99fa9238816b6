package protocols.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import protocols.load.Faults;
import protocols.load.RunAnalysis;
import protocols.stats.RequestStats;
import protocols.stats.StreamStats;
import protocols.stats.StreamTrials;
import protocols.stats.RunContext;
import protocols.stats.RunInfo;

/**
 * {@code rpc-report.html} ({@code templates/rpc-report.peb}): what Gatling's own report cannot show for
 * RPC calls. Per level the true calls/s over the level's own span, KOs and their reasons, µs
 * percentiles, where the CPU went; a percentile spectrum and throughput over time per group of
 * levels; the validity warnings first. Self-contained (inline SVG, no scripts) so it opens offline.
 */
public final class RpcReportPage {
  public static final String FILE = "rpc-report.html";
  /** The chart group of requests that are no level of the lab's (a simulation's own). */
  static final String OWN_REQUESTS = "all requests";

  private RpcReportPage() {}

  /**
   * A merge's own part of the page, before the levels: its injectors and each level's share of each.
   */
  public record Merged(List<RunInfo.MergedInjector> injectors, Map<String, List<RunInfo.InjectorLevel>> perInjector) {
  }

  /**
   * The page of one run's {@code requests} and its {@code streams}' per-message figures; {@code merged}
   * (null but for a merge) replaces the run's introduction.
   */
  public static String render(String title, List<RequestStats> requests, List<StreamStats> streams,
                              RunAnalysis analysis, RunInfo run, boolean interrupted, Merged merged) {
    return render(title, requests, streams, analysis, run, interrupted, merged, null, null);
  }

  /**
   * As {@link #render}, with the run's profiles (-Dprofile) and its streams' levels over their trials
   * (the streaming shootout's -Drepeat), each null when the run has none.
   */
  public static String render(String title, List<RequestStats> requests, List<StreamStats> streams,
                              RunAnalysis analysis, RunInfo run, boolean interrupted, Merged merged,
                              protocols.stats.profile.Profiles profiles, StreamTrials streamTrials) {
    Map<String, Object> model = new HashMap<>();
    model.put("streamTrials", streamTrials == null || streamTrials.isEmpty() ? null : streamTrials);
    model.put("seed", run.settings() == null ? null : run.settings().get("seed"));
    model.put("noiseFloor", Math.round(protocols.stats.TrialStats.NOISE_FLOOR * 100));
    model.put("p99NoiseFloor", Math.round(protocols.stats.TrialStats.P99_NOISE_FLOOR * 100));
    model.put("profiles", profiles == null ? null : ProfileBars.of(profiles));
    model.put("title", title);
    model.put("generated", Pages.now());
    model.put("merged", merged);
    model.put("interrupted", interrupted);
    model.put("warnings", analysis.warnings());
    model.put("cpuNotSampled", analysis.cpuNotSampled().orElse(null));
    model.put("notJudged", analysis.notJudged());
    model.put("noCpu", merged == null ? "not sampled" : "in each injector's report");
    List<Map<String, Object>> levels = new ArrayList<>();
    List<Map<String, Object>> open = new ArrayList<>();
    List<Map<String, Object>> koReasons = new ArrayList<>();
    Map<String, RunInfo.WarmupOutcome> settles = new HashMap<>();
    if (run.settles() != null) {
      run.settles().forEach(s -> settles.put(s.request(), s));
    }
    for (RequestStats r : trialsTogether(requests)) {
      RunAnalysis.Assessment a = analysis.level(r.name()).orElse(null);
      Map<String, Object> row = new HashMap<>();
      // The rounds interleaved the trials: when this one ran (0: not a trial).
      row.put("ran", r.level() != null && r.level().trial() > 0 ? requests.indexOf(r) + 1 : 0);
      row.put("settle", settles.get(r.name()));
      row.put("stats", r);
      row.put("assessment", a);
      row.put("cpu", a == null ? null : a.cpu());
      row.put("saturation", a == null ? null : a.saturation());
      row.put("flames", profiles == null ? List.of() : profiles.levels().stream()
          .filter(p -> p.request().equals(r.name()) && p.flameGraph() != null).toList());
      row.put("flagged", analysis.warnings().stream().anyMatch(w -> w.request().equals(r.name())));
      row.put("throughput", tenths(r.throughput()));
      row.put("okThroughput", tenths(r.okThroughput()));
      levels.add(row);
      if (r.isOpen()) {
        open.add(row);
      }
      r.koReasons().forEach((message, count) -> koReasons.add(Map.of("request", r.name(), "message", message,
          "count", count)));
    }
    model.put("levels", levels);
    model.put("open", open);
    model.put("koReasons", koReasons);
    model.put("streams", streams);
    List<RunInfo.FaultOutcome> faults = run.faults() == null ? List.of() : run.faults();
    model.put("faults", faults);
    model.put("faultsApart", faults.stream().anyMatch(RunInfo.FaultOutcome::callsApart));
    model.put("recoveryBound", Faults.RECOVERY_BOUND.toSeconds());
    model.put("charts", charts(requests, faults));
    List<Map<String, Object>> protocols = new ArrayList<>();
    for (Map<String, Object> p : run.protocols() == null ? List.<Map<String, Object>>of() : run.protocols()) {
      Map<String, Object> entries = new LinkedHashMap<>(p);
      protocols.add(Map.of("framework", String.valueOf(p.getOrDefault("framework", "")), "entries", entries,
          "providers", providers(entries.remove(RunInfo.SERVED_BY_PROVIDER))));
    }
    model.put("protocols", protocols);
    model.put("machine", merged == null ? RunContext.machine() : null);
    return Pages.render("rpc-report", model);
  }

  /** Each provider's row: its number, address, the calls it served and its share of them all. */
  private static List<Map<String, Object>> providers(Object served) {
    if (!(served instanceof List<?> list) || list.isEmpty()) {
      return List.of();
    }
    long total = 0;
    for (Object o : list) {
      total += ((Number) ((Map<?, ?>) o).get("served")).longValue();
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Object o : list) {
      Map<?, ?> p = (Map<?, ?>) o;
      long n = ((Number) p.get("served")).longValue();
      rows.add(Map.of("provider", p.get("provider"), "address", p.get("address"), "served", n,
          "share", total == 0 ? "–" : String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * n / total)));
    }
    return rows;
  }

  /** As rpc-summary.json holds it (one decimal), so the page's whole number is the JSON's rounded. */
  private static double tenths(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /** Per group of levels (a framework and mode): the latency spectrum and the throughput over time. */
  private static List<Map<String, Object>> charts(List<RequestStats> requests, List<RunInfo.FaultOutcome> faults) {
    Map<String, List<RequestStats>> groups = new LinkedHashMap<>();
    Map<String, RequestStats> windows = new HashMap<>(); // a level's name → its fault window's calls
    for (RequestStats r : requests) {
      if (r.duringFault()) {
        windows.put(r.level().outsideFault().name(), r); // drawn on its level's line, not as a line of its own
        continue;
      }
      String group = r.level() == null || r.level().group() == null ? OWN_REQUESTS : r.level().group();
      groups.computeIfAbsent(group, g -> new ArrayList<>()).add(r);
    }
    List<Map<String, Object>> out = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, List<RequestStats>> g : groups.entrySet()) {
      List<String> svgs = new ArrayList<>();
      List<RequestStats> open = g.getValue().stream().filter(r -> r.isOpen() && r.measured()).toList();
      if (!open.isEmpty()) {
        svgs.add(Charts.curve("curve-" + i, "Latency against throughput, " + g.getKey(), List.of(Map.entry("", open)))
            .render());
      }
      svgs.add(Charts.spectrum("spectrum-" + i, g.getKey(), g.getValue()).render());
      SvgChart throughput = Charts.throughputOverTime("throughput-" + i, g.getKey(), g.getValue(),
          r -> Charts.timeline(r, windows.get(r.name())));
      for (RunInfo.FaultOutcome f : faults) {
        if (g.getValue().stream().anyMatch(r -> r.name().equals(f.request()))) {
          double from = f.faultStartSeconds();
          double back = f.restoredSeconds() == null ? from + 3600 : f.restoredSeconds();
          throughput = throughput.band(from, back, "server down (" + f.request() + ")", SvgChart.DARK_BAND);
          if (f.callsApart() && f.restoredSeconds() != null) {
            throughput = throughput.band(back, back + Faults.RECOVERY_BOUND.toSeconds(),
                "fault window after the server came back: calls counted in the during-fault row", SvgChart.LIGHT_BAND);
          }
        }
      }
      svgs.add(throughput.render());
      out.add(Map.of("title", g.getKey(), "svgs", svgs));
      i++;
    }
    return out;
  }

  /**
   * The requests in the order they ran, but each level's trials together, in trial order, where its
   * first trial ran: the shootout interleaves them in rounds.
   */
  static List<RequestStats> trialsTogether(List<RequestStats> requests) {
    Map<Object, List<RequestStats>> groups = new java.util.LinkedHashMap<>();
    for (RequestStats r : requests) {
      Object key = r.level() != null && r.level().trial() > 0 ? r.level().overTrials() : r.name();
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return groups.values().stream().flatMap(g -> g.stream()
        .sorted(java.util.Comparator.comparingInt(r -> r.level() == null ? 0 : r.level().trial()))).toList();
  }
}
