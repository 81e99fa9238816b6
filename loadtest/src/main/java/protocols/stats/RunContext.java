package protocols.stats;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** What a report says about where and with what a run ran: the machine and the library versions. */
public final class RunContext {
  private RunContext() {}

  public static Map<String, Object> machine() {
    Map<String, Object> m = new LinkedHashMap<>();
    int jvm = Runtime.getRuntime().availableProcessors();
    int machine = Math.max(CpuSampler.machineCores(), jvm);
    m.put("cores", machine);
    if (jvm < machine) { // -Dcpus, a cpuset or a container's limit: where this JVM's threads may run
      m.put("injectorCores", jvm);
    }
    cpuModel().ifPresent(c -> m.put("cpu", c));
    m.put("memoryGiB", totalMemoryGiB());
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("note", "clients, servers and Gatling share this machine; compare ratios from one run rather than "
        + "absolute figures across machines");
    return m;
  }

  private static Optional<String> cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String totalMemoryGiB() {
    try {
      return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
          .map(l -> Numbers.fmt(Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0, 1)).findFirst().orElse("?");
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  public static Map<String, String> versions() {
    Map<String, String> v = new LinkedHashMap<>();
    Properties p = new Properties();
    try (InputStream in = RunContext.class.getResourceAsStream("/rpc-load-lab-versions.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException ignored) {
      // reported as missing below
    }
    // The harness's own; the frameworks' come from their descriptors (RpcFramework#version).
    for (String name : new String[] {"gatling", "netty"}) {
      v.put(name, p.getProperty(name, "?"));
    }
    return v;
  }

}
