package protocols.lab;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A child process this JVM owns: it ends with this JVM however that ends (SIGTERM, Ctrl-C, an error),
 * and with the thread waiting for it if that thread is interrupted, so no load keeps running behind
 * a run that is over.
 */
public final class OwnedProcess implements AutoCloseable {
  private static final Duration GRACE = Duration.ofSeconds(5);
  private final Process process;
  private final Thread stopOnExit;

  private OwnedProcess(Process process) {
    this.process = process;
    this.stopOnExit = new Thread(this::stop, "stop-pid-" + process.pid());
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /** Starts {@code builder}'s process, owned from now on. */
  public static OwnedProcess start(ProcessBuilder builder) throws IOException {
    return new OwnedProcess(builder.start());
  }

  /** Whether {@code binary} is an executable in one of the PATH's folders. */
  static boolean onPath(String binary) {
    String path = System.getenv("PATH");
    return path != null && java.util.stream.Stream.of(path.split(java.io.File.pathSeparator))
        .anyMatch(dir -> java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, binary)));
  }

  public Process process() {
    return process;
  }

  /**
   * Waits for the process to end, at most {@code limit}; stops it when the limit passes or the waiting
   * thread is interrupted (the interrupt is kept). Returns its exit status, or empty if it was stopped.
   */
  public java.util.OptionalInt waitFor(Duration limit) {
    try {
      if (process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        return java.util.OptionalInt.of(process.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stop();
    return java.util.OptionalInt.empty();
  }

  private void stop() {
    stop(process, GRACE);
  }

  /**
   * SIGTERM, up to {@code grace} for a clean exit, then SIGKILL for it and anything it started; an
   * interrupt kills at once and is kept. Through its handle: {@link Process#destroy} would also close
   * our end of its output, losing the last lines it prints as it stops.
   */
  static void stop(Process process, Duration grace) {
    if (!process.isAlive()) {
      return;
    }
    process.toHandle().destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the process if it still runs, and lets go of it. */
  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }
}
