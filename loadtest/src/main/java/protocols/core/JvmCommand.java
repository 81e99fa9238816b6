package protocols.core;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The command line for a new JVM like this one: same java, same class path, same module opens. */
public final class JvmCommand {
  private JvmCommand() {}

  /**
   * {@code java [this JVM's --add-opens] [jvmOptions] -cp <this class path> mainClass args}. The opens
   * are passed on because Kryo needs them on both sides of a Dubbo call.
   */
  public static List<String> of(List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens"))
        .forEach(command::add);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }
}
