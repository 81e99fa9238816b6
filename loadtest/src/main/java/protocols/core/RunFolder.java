package protocols.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the folder of the run in progress, where Gatling will also write index.html. Gatling opens
 * {@code <results>/<runId>/simulation.log} before any protocol component is built and keeps it open,
 * and does not expose the run id, so the open file is the exact answer.
 */
public final class RunFolder {
  static final String LOG_FILE = "simulation.log";

  private RunFolder() {}

  public static Optional<Path> ofCurrentRun() {
    Path fds = Paths.get("/proc/self/fd");
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

  private static Optional<Path> target(Path fd) {
    try {
      return Optional.of(Files.readSymbolicLink(fd));
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }
}
