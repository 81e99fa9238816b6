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

  /** {@code p}'s command line (arguments NUL-separated), empty once it is gone. */
  public static String commandLine(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
    } catch (IOException | RuntimeException gone) {
      return "";
    }
  }

  /**
   * Waits up to {@code limit} until no process on the machine has exactly {@code commandLine} (a
   * server's names its own port, so only this run's can match, even one orphaned); whether none has.
   */
  public static boolean noneRuns(String commandLine, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (ProcessHandle.allProcesses().anyMatch(p -> p.isAlive() && commandLine(p).equals(commandLine))) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(100);
    }
    return true;
  }

  static boolean runs(ProcessHandle p, String mainClass) {
    try {
      return p.isAlive() && Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(mainClass);
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }
}
