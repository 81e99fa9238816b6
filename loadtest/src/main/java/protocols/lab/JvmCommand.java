package protocols.lab;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The command line for a new JVM like this one: same java, same class path, same module opens. */
public final class JvmCommand {
  private JvmCommand() {}

  /**
   * {@code java [this JVM's --add-opens] [jvmOptions] -cp <this class path> mainClass args}. The opens
   * are passed on because Kryo needs them on both sides of a Dubbo call; Netty's TLS defaults, where
   * this JVM was given them (a TLS run: Dubbo's TLS client needs them, docs/tls.md); the JIT's highest tier.
   */
  public static List<String> of(List<String> jvmOptions, String mainClass, List<String> args) {
    return command(a -> a.startsWith("--add-opens") || a.startsWith(NETTY_TLS) || a.startsWith(JIT_TIER), jvmOptions,
        mainClass, args);
  }

  private static final String NETTY_TLS = "-Dio.netty.handler.ssl.";
  /** Netty's leak detector, which Gatling's JVM runs without (pom): the plain driver alike. */
  private static final String NETTY_LEAKS = "-Dio.netty.leakDetection.";
  /** The JIT's highest tier, where this JVM was given one: the ITs run every JVM of theirs with C1 only (pom). */
  private static final String JIT_TIER = "-XX:TieredStopAtLevel=";

  /**
   * As {@link #of}, and with this JVM's -X flags (heap, GC, inlining: the Gatling plugin's) and Netty's
   * leak detection level, so that a plain driver runs on the same VM settings as Gatling. Agents, debug
   * and flight-recorder flags are not passed on.
   */
  public static List<String> ofSameVm(List<String> jvmOptions, String mainClass, List<String> args) {
    return command(a -> a.startsWith("--add-opens") || a.startsWith(NETTY_TLS) || a.startsWith(NETTY_LEAKS)
        || a.equals("-server")
        || a.startsWith("-X") && !a.startsWith("-XX:StartFlightRecording") && !a.startsWith("-XX:FlightRecorder")
        && !a.startsWith("-Xrun") && !a.startsWith("-Xdebug"), jvmOptions, mainClass, args);
  }

  private static List<String> command(Predicate<String> passedOn, List<String> jvmOptions, String mainClass,
                                      List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(passedOn).forEach(command::add);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }
}
