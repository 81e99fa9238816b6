package protocols.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code -DserverPids}: processes of the test that the lab did not start (a provider of your own, its
 * registry), as process ids or PID files, comma-separated ({@code -DserverPids=4242,/run/provider.pid}).
 * Their CPU, and their descendants', counts as the servers' share, not as other work on the machine, so
 * a run against your own provider on this machine is not warned of as a busy machine.
 */
final class DeclaredServers {
  static final String PARAM = "serverPids";

  private DeclaredServers() {}

  /** The declared processes' ids, each alive now; none when not given. */
  static Set<Long> of(LoadParams params) {
    Set<Long> pids = new LinkedHashSet<>();
    for (String item : params.optional(PARAM).map(v -> v.split(",")).orElse(new String[0])) {
      String one = item.trim();
      if (one.isEmpty()) {
        continue;
      }
      if (one.chars().allMatch(Character::isDigit)) {
        pids.add(alive(Long.parseLong(one), one));
        continue;
      }
      String text;
      try {
        text = Files.readString(Path.of(one));
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException("-D" + PARAM + ": '" + one + "' is neither a process id nor a PID file"
            + " that can be read (" + e.getClass().getSimpleName() + ")");
      }
      for (String pid : text.trim().split("\\s+")) {
        if (!pid.chars().allMatch(Character::isDigit) || pid.isEmpty()) {
          throw new IllegalArgumentException("-D" + PARAM + ": the PID file " + one + " holds '" + pid
              + "', not a process id");
        }
        pids.add(alive(Long.parseLong(pid), one));
      }
    }
    return pids;
  }

  private static long alive(long pid, String from) {
    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      return pid;
    }
    throw new IllegalArgumentException("-D" + PARAM + ": no process " + pid + " is running on this machine"
        + (from.equals(Long.toString(pid)) ? "" : " (from " + from + ")"));
  }
}
