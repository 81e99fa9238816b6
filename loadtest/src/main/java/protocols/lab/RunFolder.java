package protocols.lab;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the folder of the run in progress, where Gatling will also write index.html. Gatling opens
 * {@code <results>/<runId>/simulation.log} before any protocol component is built and keeps it open,
 * and does not expose the run id: on Linux the open file is the exact answer; elsewhere (macOS,
 * Windows) the newest run folder begun since this JVM started, under the results folder Gatling was
 * given ({@code -rf}, as the Maven plugin gives it).
 */
public final class RunFolder {
  static final String LOG_FILE = "simulation.log";

  private RunFolder() {}

  /** The results folder Gatling was given ({@code -rf}), where the runs' folders go; empty outside the Maven plugin. */
  public static Optional<Path> resultsFolder() {
    List<String> args = gatlingArgs();
    int at = Math.max(args.indexOf("-rf"), args.indexOf("--results-folder"));
    return at < 0 || at + 1 >= args.size() ? Optional.empty() : Optional.of(Paths.get(args.get(at + 1)));
  }

  /** The run's folder, or empty when neither way finds it. */
  public static Optional<Path> ofCurrentRun() {
    Optional<Path> open = fromOpenFiles(Paths.get("/proc/self/fd"));
    return open.isPresent() ? open : fromResultsFolder(gatlingArgs(),
        ManagementFactory.getRuntimeMXBean().getStartTime());
  }

  /**
   * Gatling's own arguments: the Maven plugin starts Gatling from a jar whose {@code META-INF/args.txt}
   * holds them, one a line; run directly, they are this JVM's command line.
   */
  static List<String> gatlingArgs() {
    try (InputStream in = ClassLoader.getSystemResourceAsStream("META-INF/args.txt")) {
      if (in != null) {
        List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim).toList();
        if (lines.contains("-rf") || lines.contains("--results-folder")) {
          return lines;
        }
      }
    } catch (IOException e) {
      // then the command line
    }
    return ProcessHandle.current().info().arguments().map(List::of)
        .orElseGet(() -> List.of(System.getProperty("sun.java.command", "").split("\\s+")));
  }

  /** The folder of the {@code simulation.log} this process holds open, from Linux's /proc/self/fd. */
  static Optional<Path> fromOpenFiles(Path fds) {
    if (!Files.isDirectory(fds)) {
      return Optional.empty();
    }
    try (Stream<Path> open = Files.list(fds)) {
      return open.map(RunFolder::target)
          .flatMap(Optional::stream)
          .filter(p -> p.getFileName() != null && p.getFileName().toString().equals(LOG_FILE))
          .map(Path::getParent)
          .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Without /proc: the newest folder holding a {@code simulation.log} written since {@code startedMillis},
   * under the {@code -rf} (or {@code --results-folder}) of Gatling's arguments {@code args}.
   */
  static Optional<Path> fromResultsFolder(List<String> args, long startedMillis) {
    int at = Math.max(args.indexOf("-rf"), args.indexOf("--results-folder"));
    if (at < 0 || at + 1 >= args.size()) {
      return Optional.empty();
    }
    try (Stream<Path> runs = Files.list(Paths.get(args.get(at + 1)))) {
      return runs.filter(d -> Files.isRegularFile(d.resolve(LOG_FILE)))
          .filter(d -> modified(d.resolve(LOG_FILE)) >= startedMillis - 1_000)
          .max(Comparator.comparingLong(d -> modified(d.resolve(LOG_FILE))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private static Optional<Path> target(Path fd) {
    try {
      return Optional.of(Files.readSymbolicLink(fd));
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }
}
