package protocols.merge;

import static protocols.stats.Numbers.fmt;

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
import protocols.rpc.Errors;
import protocols.lab.LoadParams;
import protocols.report.RpcReportPage;
import protocols.report.SummaryTable;
import protocols.stats.Validity;
import protocols.stats.Summaries;
import protocols.stats.RunInfo;

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
      String runs = protocols.rpc.SystemProperty.get("runs", String.join(",", args)).trim();
      if (runs.isEmpty()) {
        throw new IllegalArgumentException("-Druns is required: the injectors' run folders, comma-separated, e.g."
            + " -Druns=loadtest/target/gatling/injector-0,loadtest/target/gatling/injector-1");
      }
      String out = protocols.rpc.SystemProperty.get("out", "").trim();
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
    List<RunInfo.MergedInjector> injectors = new ArrayList<>();
    for (InjectorRun r : runs) {
      injectors.add(new RunInfo.MergedInjector(r.index(), r.count(), r.host(), r.folder().toAbsolutePath().toString(),
          link(out, r.folder().resolve("index.html")), link(out, r.folder().resolve(RpcReportPage.FILE)),
          r.startAtEpochMillis() == null ? null : java.time.Instant.ofEpochMilli(r.startAtEpochMillis()).toString(),
          r.interrupted()));
    }
    boolean interrupted = runs.stream().anyMatch(InjectorRun::interrupted);
    RunInfo run = new RunInfo(runs.get(0).protocols(), interrupted, null, null, null, null, runs.get(0).settings(),
        null, null, true, injectors, result.perInjector(), null, null, null, null, null, null, null, null);
    Map<String, Validity> validity = new LinkedHashMap<>();
    result.analysis().levels().forEach(l -> validity.put(l.request(), l.validity()));
    Path summary = Summaries.write(out.resolve(Summaries.FILE), new Summaries.Summary(run,
        result.analysis().warnings(), result.requests(), validity));
    Path page = out.resolve(RpcReportPage.FILE);
    String title = "RPC report: " + runs.size() + " injectors merged, " + out.toAbsolutePath().getFileName();
    Files.writeString(page, RpcReportPage.render(title, result.requests(), List.of(), result.analysis(), run, interrupted,
        new RpcReportPage.Merged(injectors, result.perInjector())), StandardCharsets.UTF_8);
    console.println(SummaryTable.render(result.requests()));
    console.println(perInjectorTable(result));
    SummaryTable.printValidity(result.analysis(), console);
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
        name.length() > 44 ? name.substring(0, 44) : name, r.injector(), r.count(), r.ko(), fmt(r.okThroughput(), 0)
            + (r.slow() ? " SLOW" : ""), r.p50(), r.p99(), r.startOffsetMillis()))));
    return sb.toString();
  }
}
