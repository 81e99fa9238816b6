package protocols.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Which live processes run a class, from /proc (ProcessHandle.Info gives no command line as long as a Maven class path). */
public final class TestProcesses {
  private TestProcesses() {}

  /** Live processes, anywhere on the machine, whose command line names {@code mainClass}. */
  public static long running(String mainClass) {
    return ProcessHandle.allProcesses().filter(p -> runs(p, mainClass)).count();
  }

  /** Kills every live process whose command line names {@code mainClass}: a test's cleanup. */
  public static void killAll(String mainClass) {
    ProcessHandle.allProcesses().filter(p -> runs(p, mainClass)).forEach(ProcessHandle::destroyForcibly);
  }

  static boolean runs(ProcessHandle p, String mainClass) {
    try {
      return p.isAlive() && Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(mainClass);
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }
}
