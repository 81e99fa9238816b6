package protocols.merge;

import static protocols.core.Html.esc;
import static protocols.core.Html.fmt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import protocols.core.Errors;
import protocols.core.Html;
import protocols.core.LoadParams;
import protocols.core.LatencyRecorder;
import protocols.core.RpcReportPage;
import protocols.core.RunReport;
import protocols.core.SummaryTable;

/**
 * The merge of several injectors' runs, without Gatling and without re-running anything:
 * {@code -Druns=dirA,dirB} (run folders, or folders holding one run each; {@code *} in the last
 * name matches several), {@code -Dout} (default: {@code merged-<time>} beside the first run),
 * {@code -Dinjectors=N} (how many were started, so a missing one is flagged), {@code -DwaitSeconds}
 * (wait for the injectors to finish, for a merge Job started beside them). Writes a merged
 * {@code rpc-summary.json} and {@code rpc-report.html}; exit 1 with one line on bad input.
 */
public final class MergeCommand {
  private MergeCommand() {}

  public static void main(String[] args) {
    try {
      String runs = System.getProperty("runs", String.join(",", args)).trim();
      if (runs.isEmpty()) {
        throw new IllegalArgumentException("-Druns is required: the injectors' run folders, comma-separated, e.g."
            + " -Druns=loadtest/target/gatling/injector-0,loadtest/target/gatling/injector-1");
      }
      String out = System.getProperty("out", "").trim();
      LoadParams params = LoadParams.fromSystemProperties();
      int expected = params.intParam("injectors", 0, 0, 1_000);
      int waitSeconds = params.intParam("waitSeconds", 0, 0, 86_400);
      Map<Path, InjectorRun> read = waitSeconds > 0 ? await(runs, expected, waitSeconds) : read(expand(runs));
      Path target = out.isEmpty() ? defaultOut(read.keySet().iterator().next()) : Paths.get(out);
      write(List.copyOf(read.values()), target, expected, System.out);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.err.println("error: could not write the merged report: " + Errors.oneLine(e));
      System.exit(1);
    }
  }

  /**
   * {@code -DwaitSeconds}: polls until {@code expected} (or, without -Dinjectors, at least one) of the
   * folders hold a summary, at most that long; then goes on with the ones that do (a missing injector
   * is flagged by the merge). For a merge Job started beside its injectors.
   */
  static Map<Path, InjectorRun> await(String runs, int expected, long waitSeconds) {
    long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
    long lastSaid = 0;
    while (true) {
      Map<Path, InjectorRun> ready = new LinkedHashMap<>();
      try {
        for (Path p : expand(runs)) {
          try {
            ready.put(p, InjectorRun.read(p));
          } catch (IllegalArgumentException notYet) {
            // still running
          }
        }
      } catch (IllegalArgumentException noneYet) {
        // no folder yet
      }
      boolean done = expected > 0 ? ready.size() >= expected : !ready.isEmpty();
      if (done || System.nanoTime() > deadline) {
        if (ready.isEmpty()) {
          throw new IllegalArgumentException("no run with a summary in " + runs + " after " + waitSeconds + " s");
        }
        return ready;
      }
      if (System.nanoTime() - lastSaid > 30_000_000_000L) {
        System.out.println("merge: " + ready.size() + " of " + (expected > 0 ? expected : "?") + " injectors done;"
            + " waiting (at most " + waitSeconds + " s in all)");
        lastSaid = System.nanoTime();
      }
      try {
        Thread.sleep(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalArgumentException("interrupted while waiting for the injectors");
      }
    }
  }

  private static Path defaultOut(Path firstRun) {
    Path parent = firstRun.toAbsolutePath().getParent();
    return parent.resolve("merged-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss")));
  }

  /** The comma-separated folders, each as given or, with {@code *} in its last name, every match sorted. */
  static List<Path> expand(String runs) {
    List<Path> out = new ArrayList<>();
    for (String part : runs.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      Path path = Paths.get(p);
      String last = path.getFileName() == null ? "" : path.getFileName().toString();
      if (!last.contains("*")) {
        out.add(path);
        continue;
      }
      Path dir = path.toAbsolutePath().getParent();
      PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + last);
      try (Stream<Path> children = Files.list(dir)) {
        List<Path> matched = children.filter(c -> Files.isDirectory(c) && glob.matches(c.getFileName())).sorted()
            .toList();
        if (matched.isEmpty()) {
          throw new IllegalArgumentException("-Druns: nothing matches " + p);
        }
        out.addAll(matched);
      } catch (IOException e) {
        throw new IllegalArgumentException("-Druns: cannot list " + dir + ": " + Errors.oneLine(e));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("-Druns names no folder");
    }
    return out;
  }

  /** Each folder's run, in the order given; the first unreadable one is a one-line error. */
  private static Map<Path, InjectorRun> read(List<Path> folders) {
    Map<Path, InjectorRun> out = new LinkedHashMap<>();
    for (Path f : folders) {
      out.put(f, InjectorRun.read(f));
    }
    return out;
  }

  /** What a merge wrote. */
  public record Written(Path summary, Path page, Merge.Result result) {
  }

  /** Merges {@code runs}, writes both files into {@code out} and prints the merged table. */
  public static Written write(List<InjectorRun> runs, Path out, int expected, java.io.PrintStream console)
      throws IOException {
    Merge.Result result = Merge.of(runs, expected);
    Files.createDirectories(out);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("merged", true);
    run.put("protocols", runs.get(0).protocols());
    run.put("settings", runs.get(0).settings());
    run.put("interrupted", runs.stream().anyMatch(InjectorRun::interrupted));
    List<Map<String, Object>> injectors = new ArrayList<>();
    for (InjectorRun r : runs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("index", r.index());
      m.put("count", r.count());
      m.put("host", r.host());
      m.put("folder", r.folder().toAbsolutePath().toString());
      m.put("gatlingReport", link(out, r.folder().resolve("index.html")));
      m.put("rpcReport", link(out, r.folder().resolve(RpcReportPage.FILE)));
      if (r.startAtEpochMillis() != null) {
        m.put("startAt", java.time.Instant.ofEpochMilli(r.startAtEpochMillis()).toString());
      }
      m.put("interrupted", r.interrupted());
      injectors.add(m);
    }
    run.put("injectors", injectors);
    Map<String, Object> perInjector = new LinkedHashMap<>();
    result.perInjector().forEach((name, rows) -> perInjector.put(name, rows.stream().map(Merge.InjectorLevel::asMap)
        .toList()));
    run.put("perInjector", perInjector);
    Path summary = LatencyRecorder.writeSummaryTo(out.resolve(LatencyRecorder.SUMMARY_FILE), run, result.requests(),
        result.analysis());
    Path page = out.resolve(RpcReportPage.FILE);
    String title = "RPC report: " + runs.size() + " injectors merged, " + out.toAbsolutePath().getFileName();
    Files.writeString(page, RpcReportPage.render(title, result.requests(), result.analysis(), run,
        (Boolean) run.get("interrupted"), injectorsHtml(runs, injectors, result)), StandardCharsets.UTF_8);
    console.println(SummaryTable.render(result.requests()));
    console.println(perInjectorTable(result));
    RunReport.printWarnings(result.analysis(), console);
    console.println("Merged RPC summary of " + runs.size() + " injectors: " + summary.toAbsolutePath());
    console.println("Merged RPC report: " + page.toAbsolutePath().toUri());
    return new Written(summary, page, result);
  }

  private static String link(Path from, Path to) {
    return from.toAbsolutePath().normalize().relativize(to.toAbsolutePath().normalize()).toString();
  }

  private static String perInjectorTable(Merge.Result result) {
    StringBuilder sb = new StringBuilder("Per injector (calls/s in the window all injectors shared; µs):\n");
    String line = "%-44s %8s %10s %8s %12s %9s %9s %10s%n";
    sb.append(String.format(line, "request", "injector", "calls", "KO", "OK calls/s", "p50", "p99", "start +ms"));
    result.perInjector().forEach((name, rows) -> rows.forEach(r -> sb.append(String.format(line,
        name.length() > 44 ? name.substring(0, 44) : name, r.index(), r.count(), r.ko(), fmt(r.okPerSecond(), 0)
            + (r.slow() ? " SLOW" : ""), r.p50(), r.p99(), r.startOffsetMillis()))));
    return sb.toString();
  }

  /** The injectors and each level's per-injector rows, for the top of the merged page. */
  static String injectorsHtml(List<InjectorRun> runs, List<Map<String, Object>> injectors, Merge.Result result) {
    StringBuilder h = new StringBuilder();
    h.append("<p id=\"merged\">Merged from <strong>").append(runs.size()).append(" injectors</strong>. Percentiles ")
        .append("are exact: each level's HdrHistograms from every injector added, not averaged. <em>calls/s</em> is ")
        .append("the sum of each injector's rate over its whole 1-second windows within the window every injector ")
        .append("was in the level (<em>time (s)</em>, the common window); counts are every injector's calls. ")
        .append("Each injector's own reports, with its CPU figures, are linked below. Generated ")
        .append(esc(Html.now())).append("; the same figures are in <code>").append(LatencyRecorder.SUMMARY_FILE)
        .append("</code>.</p>\n");
    h.append("<table id=\"injectors\"><caption>Injectors</caption>\n<tr><th>injector</th><th>host</th>")
        .append("<th>-DstartAt</th><th>Gatling report</th><th>RPC report</th><th>interrupted</th></tr>\n");
    for (Map<String, Object> m : injectors) {
      h.append("<tr><td>").append(m.get("index")).append('/').append(m.get("count")).append("</td><td>")
          .append(esc(String.valueOf(m.get("host")))).append("</td><td>")
          .append(esc(String.valueOf(m.getOrDefault("startAt", "none")))).append("</td><td><a class=\"gatling\" href=\"")
          .append(esc(String.valueOf(m.get("gatlingReport")))).append("\">index.html</a></td><td><a href=\"")
          .append(esc(String.valueOf(m.get("rpcReport")))).append("\">rpc-report.html</a></td><td>")
          .append(m.get("interrupted")).append("</td></tr>\n");
    }
    h.append("</table>\n");
    h.append("<table id=\"per-injector\"><caption>Per injector: each level's share (a slow injector is marked)")
        .append("</caption>\n<tr><th>request</th><th>injector</th><th>calls</th><th>KO</th><th>OK calls/s (common ")
        .append("window)</th><th>p50 (µs)</th><th>p99 (µs)</th><th>max (µs)</th><th>dropped</th>")
        .append("<th>start after first (ms)</th></tr>\n");
    result.perInjector().forEach((name, rows) -> rows.forEach(r -> h.append("<tr data-request=\"").append(esc(name))
        .append("\"").append(r.slow() ? " class=\"flagged\"" : "").append("><td class=\"n\">").append(esc(name))
        .append("</td><td class=\"injector\">").append(r.index()).append("</td><td class=\"count\">").append(r.count())
        .append("</td><td>").append(r.ko()).append("</td><td class=\"throughput\">").append(fmt(r.okPerSecond(), 0))
        .append(r.slow() ? " (slow)" : "").append("</td><td>").append(r.p50()).append("</td><td class=\"p99\">")
        .append(r.p99()).append("</td><td>").append(r.max()).append("</td><td>").append(r.dropped())
        .append("</td><td>").append(r.startOffsetMillis()).append("</td></tr>\n")));
    h.append("</table>\n");
    return h.toString();
  }
}
