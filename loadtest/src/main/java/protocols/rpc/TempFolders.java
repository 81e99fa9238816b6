package protocols.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary folders a client or run makes for itself (keys among them), deleted by their owner when it is done. */
public final class TempFolders {
  private TempFolders() {}

  /** Deletes {@code folder} and everything in it; a folder that cannot be deleted is no failure of the run. */
  public static void delete(Path folder) {
    if (folder == null || !Files.exists(folder)) {
      return;
    }
    try (Stream<Path> all = Files.walk(folder)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // left behind: said nowhere, as the JDK's own temporary files
    }
  }
}
