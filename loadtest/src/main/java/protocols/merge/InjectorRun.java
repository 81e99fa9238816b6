package protocols.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import protocols.rpc.Errors;
import protocols.stats.RequestStats;
import protocols.stats.RunInfo;
import protocols.stats.Summaries;
import protocols.stats.Warning;

/**
 * One injector's run as its {@code rpc-summary.json} recorded it: who ran it, when, with which
 * settings, and per request name the exact HdrHistograms and 1-second windows a merge needs.
 */
public record InjectorRun(Path folder, int index, int count, String host, Long startAtEpochMillis,
                          boolean interrupted, Map<String, String> settings, List<Map<String, Object>> protocols,
                          List<RequestStats> requests, List<Warning> warnings) {

  /**
   * Reads the run in {@code path}: a Gatling run folder holding {@code rpc-summary.json}, or a folder
   * holding exactly one such run folder (an injector's results folder).
   *
   * @throws IllegalArgumentException with one line saying what is wrong
   */
  public static InjectorRun read(Path path) {
    Path folder = runFolder(path);
    Path file = folder.resolve(Summaries.FILE);
    Summaries.Summary summary;
    try {
      summary = Summaries.read(file);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + Errors.oneLine(e));
    }
    RunInfo run = summary.run();
    if (run == null || run.startedAtEpochMillis() == null) {
      throw new IllegalArgumentException(file + " has no injector identity or start time: it was written before"
          + " runs could be merged, or is not an rpc-summary.json");
    }
    RunInfo.Injector injector = run.injector() == null ? RunInfo.Injector.ALONE : run.injector();
    return new InjectorRun(folder, injector.index(), injector.count(),
        injector.host() == null ? "unknown" : injector.host(), injector.startAtEpochMillis(),
        Boolean.TRUE.equals(run.interrupted()), run.settings() == null ? Map.of() : run.settings(),
        run.protocols() == null ? List.of() : run.protocols(), summary.requests(), summary.warnings());
  }

  private static Path runFolder(Path path) {
    if (Files.isRegularFile(path.resolve(Summaries.FILE))) {
      return path;
    }
    if (!Files.isDirectory(path)) {
      throw new IllegalArgumentException("no run folder at " + path);
    }
    List<Path> runs;
    try (Stream<Path> children = Files.list(path)) {
      runs = children.filter(p -> Files.isRegularFile(p.resolve(Summaries.FILE))).sorted().toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list " + path + ": " + Errors.oneLine(e));
    }
    if (runs.size() != 1) {
      throw new IllegalArgumentException(path + " holds " + (runs.isEmpty() ? "no run with an "
          + Summaries.FILE : runs.size() + " runs (" + runs.stream().map(p -> p.getFileName().toString())
          .toList() + "): name one"));
    }
    return runs.get(0);
  }

  /** {@code injector 0/2 (host)}. */
  public String label() {
    return "injector " + index + "/" + count + " (" + host + ")";
  }

  public Optional<RequestStats> request(String name) {
    return requests.stream().filter(r -> r.name().equals(name)).findFirst();
  }
}
