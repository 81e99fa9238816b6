package protocols.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A run's own processes that run a class, found among the descendants of the process that started
 * them (never machine-wide: another build on the machine may run the same servers), from /proc
 * (ProcessHandle.Info gives no command line as long as a Maven class path).
 */
public final class TestProcesses {
  private TestProcesses() {}

  /** Live descendants of {@code root} whose command line names {@code mainClass}. */
  public static List<ProcessHandle> under(ProcessHandle root, String mainClass) {
    return root.descendants().filter(p -> runs(p, mainClass)).toList();
  }

  /** Waits up to {@code limit} for every one of {@code processes} to end; whether they all did. */
  public static boolean ended(List<ProcessHandle> processes, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return processes.stream().noneMatch(ProcessHandle::isAlive);
  }

  static boolean runs(ProcessHandle p, String mainClass) {
    try {
      return p.isAlive() && Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(mainClass);
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }
}
