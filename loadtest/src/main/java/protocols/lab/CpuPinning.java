package protocols.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import protocols.rpc.Errors;
import protocols.stats.CpuSampler;

/**
 * {@code -Dcpus}: the injector (this JVM, and the plain driver and injectors it starts) on one set of
 * CPUs, every server and registry the lab starts on another, disjoint one, with Linux's {@code taskset}.
 * Then neither side's threads are scheduled onto the other's cores, which is the noise it is meant to
 * take out; whether it narrows a comparison's interval here is in docs/trials.md.
 *
 * @param injector the injector's CPUs as a taskset list ({@code 0}, {@code 0-1}, {@code 0,2})
 * @param servers the servers' CPUs, likewise
 */
public record CpuPinning(String injector, String servers) {
  private static final String TASKSET = "taskset";

  /**
   * -Dcpus: false (the default) or absent, none; true, the first half of the cores the injector's and the
   * rest the servers'; auto, as true where Linux's taskset and two cores are there, else none; else
   * {@code injector/servers}.
   */
  static Optional<CpuPinning> of(LoadParams params) {
    return of(params.string("cpus", "false"), CpuSampler.machineCores(), OwnedProcess.onPath(TASKSET));
  }

  static Optional<CpuPinning> of(String value, int machineCores, boolean tasksetFound) {
    String v = value.trim();
    if (v.equals("false")) {
      return Optional.empty();
    }
    if (v.equals("auto")) { // halves where taskset and two cores are there, else none, without an error
      return machineCores >= 2 && tasksetFound ? of("true", machineCores, true) : Optional.empty();
    }
    if (machineCores == 0 || !tasksetFound) {
      throw new IllegalArgumentException("-Dcpus pins with Linux's taskset (util-linux), " + (machineCores == 0
          ? "and this is not Linux (no /proc/stat)" : "which is not on the PATH") + "; leave -Dcpus out");
    }
    if (machineCores < 2) {
      throw new IllegalArgumentException("-Dcpus needs two cores or more to split, and this machine has " + machineCores);
    }
    if (v.equals("true")) {
      int half = machineCores / 2;
      return Optional.of(new CpuPinning(range(0, half), range(half, machineCores)));
    }
    String[] sides = v.split("/", -1);
    if (sides.length != 2) {
      throw new IllegalArgumentException(usage(value));
    }
    BitSet injector = cpus(sides[0], machineCores, value);
    BitSet servers = cpus(sides[1], machineCores, value);
    if (injector.intersects(servers)) {
      throw new IllegalArgumentException("-Dcpus gives CPU " + firstShared(injector, servers) + " to both the injector"
          + " and the servers; the two sets must not overlap: '" + value + "'");
    }
    return Optional.of(new CpuPinning(sides[0].trim(), sides[1].trim()));
  }

  private static BitSet cpus(String list, int machineCores, String value) {
    BitSet set = new BitSet();
    for (String part : list.trim().split(",", -1)) {
      String[] ends = part.trim().split("-", -1);
      int from;
      int to;
      try {
        from = Integer.parseInt(ends[0].trim());
        to = ends.length == 2 ? Integer.parseInt(ends[1].trim()) : from;
      } catch (NumberFormatException e) {
        from = -1;
        to = -1;
      }
      if (ends.length > 2 || from < 0 || to < from) {
        throw new IllegalArgumentException(usage(value));
      }
      if (to >= machineCores) {
        throw new IllegalArgumentException("-Dcpus names CPU " + to + ", and this machine's are 0 to " + (machineCores - 1)
            + ": '" + value + "'");
      }
      set.set(from, to + 1);
    }
    return set;
  }

  private static String usage(String value) {
    return "-Dcpus must be true, false, auto or <injector CPUs>/<server CPUs> (e.g. 0/1 or 0-1/2-3), got '" + value + "'";
  }

  private static int firstShared(BitSet a, BitSet b) {
    BitSet both = (BitSet) a.clone();
    both.and(b);
    return both.nextSetBit(0);
  }

  private static String range(int from, int toExclusive) {
    return toExclusive - from == 1 ? Integer.toString(from) : from + "-" + (toExclusive - 1);
  }

  /** What a server's or registry's command is started behind: {@code taskset -c <servers>}. */
  List<String> serverLauncher() {
    return List.of(TASKSET, "-c", servers);
  }

  /** Moves every thread of this JVM (and so the threads and processes it starts later) onto the injector's CPUs. */
  void pinThisJvm() {
    List<String> command = List.of(TASKSET, "-a", "-p", "-c", injector, Long.toString(ProcessHandle.current().pid()));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("-Dcpus: taskset could not pin the injector to CPUs " + injector + ": "
            + out.lines().reduce((a, b) -> b).orElse("no output"));
      }
    } catch (IOException e) {
      throw new IllegalStateException("-Dcpus: cannot run taskset: " + Errors.oneLine(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("-Dcpus: interrupted while pinning the injector");
    }
  }

  /** The CPUs process {@code pid} may run on, as the kernel says ({@code Cpus_allowed_list}); empty if it cannot be read. */
  static Optional<String> allowed(long pid) {
    try {
      return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
          .filter(l -> l.startsWith("Cpus_allowed_list:"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** As the console and the summary say it. */
  String describe() {
    return "injector on CPUs " + injector + ", servers on CPUs " + servers + " (taskset)";
  }
}
