package protocols.lab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import one.profiler.AsyncProfiler;
import protocols.stats.profile.ProfileEvent;

/** async-profiler's library and its commands, for this JVM, the servers it attaches to and the JVMs it starts. */
public final class ProfilerAgent {
  /** The -D parameter naming a library to load instead of the one in async-profiler's jar. */
  public static final String LIBRARY_PARAM = "profilerLibrary";
  /** async-profiler's sampling interval for CPU (-Dprofile=cpu). */
  public static final Duration INTERVAL = Duration.ofMillis(1);
  /** What runs where async-profiler cannot load: samples of Java frames, not of CPU time (so no µs per call). */
  public static final String FLIGHT_RECORDER = "JDK Flight Recorder (method sampling, its 'profile' settings)";

  private ProfilerAgent() {}

  /** Whether a recording of {@code event} gives CPU time (so µs per call): async-profiler's CPU samples only. */
  public static boolean cpuTime(ProfileEvent event, boolean asyncProfiler) {
    return asyncProfiler && event == ProfileEvent.CPU;
  }

  /** async-profiler as a page names it: its version where this JVM loaded it (else null), and what it samples. */
  public static String name(String version, ProfileEvent event) {
    return "async-profiler" + (version == null ? "" : " " + version) + " (" + event.label()
        + (event == ProfileEvent.CPU ? ", every " + INTERVAL.toMillis() + " ms of CPU" : "") + ")";
  }

  /** async-profiler's library for a run: the one -DprofilerLibrary names, or the jar's, extracted. */
  public record Library(Path path, boolean extracted) {
    /** The library -DprofilerLibrary names (never checked here), else the jar's extracted into {@code folder}. */
    public static Library of(LoadParams params, Path folder) throws IOException {
      String given = params.string(LIBRARY_PARAM, "");
      if (!given.isEmpty()) {
        return new Library(Path.of(given), false);
      }
      Library extracted = new Library(folder.resolve("libasyncProfiler.so"), true);
      try {
        extract(extracted.path());
      } catch (IOException e) {
        extracted.delete();
        throw e;
      }
      return extracted;
    }

    /** Deletes it where it was extracted; a library given is never deleted. */
    public void delete() {
      if (extracted) {
        try {
          Files.deleteIfExists(path);
        } catch (IOException ignored) {
          // the run's folder keeps it: not /tmp
        }
      }
    }
  }

  /** Copies the library for this OS and CPU out of async-profiler's jar to {@code to}. */
  private static void extract(Path to) throws IOException {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String dir = os.contains("mac") ? "macos" : os.contains("linux")
        ? (arch.equals("aarch64") || arch.equals("arm64") ? "linux-arm64" : "linux-x64") : null;
    if (dir == null) {
      throw new IOException("async-profiler has no library for " + os + " " + arch);
    }
    try (InputStream in = AsyncProfiler.class.getResourceAsStream("/" + dir + "/libasyncProfiler.so")) {
      if (in == null) {
        throw new IOException("no " + dir + "/libasyncProfiler.so in async-profiler's jar");
      }
      Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The command that starts recording {@code event} into {@code jfr}. */
  static String startCommand(ProfileEvent event, Path jfr) {
    String what = switch (event) {
      case CPU -> "event=cpu,interval=" + INTERVAL.toNanos();
      case ALLOC -> "event=alloc";
      case LOCK -> "event=lock";
    };
    return "start," + what + ",jfr,file=" + jfr.toAbsolutePath();
  }

  /**
   * The options that make a JVM about to start record {@code event} into {@code jfr} from its start to
   * its exit: async-profiler as an agent where {@code library} is given, else JDK Flight Recorder's
   * method sampling (its CPU samples only).
   */
  public static List<String> jvmOptions(ProfileEvent event, Path library, Path jfr) {
    return library != null
        ? List.of("-agentpath:" + library.toAbsolutePath() + "=" + startCommand(event, jfr))
        : List.of("-XX:StartFlightRecording=settings=profile,filename=" + jfr.toAbsolutePath());
  }
}
