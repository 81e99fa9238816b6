package protocols.core;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The command line for a new JVM like this one: same java, class path, module opens and VM flags. */
public final class JvmCommand {
  private JvmCommand() {}

  /**
   * {@code java [this JVM's --add-opens and -X flags] [jvmOptions] -cp <this class path> mainClass args}.
   * The opens are passed on because Kryo needs them on both sides of a Dubbo call; the -X flags (heap,
   * GC, inlining: the Gatling plugin's) so that a plain driver runs on the same VM settings as Gatling.
   * Agents, debug and flight-recorder flags are not.
   */
  public static List<String> of(List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.equals("-server")
            || a.startsWith("-X") && !a.startsWith("-XX:StartFlightRecording") && !a.startsWith("-Xrun")
            && !a.startsWith("-Xdebug"))
        .forEach(command::add);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }
}
