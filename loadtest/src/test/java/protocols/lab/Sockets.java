package protocols.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import protocols.rpc.Errors;

/** A process's TCP sockets to a port, from Linux's /proc: for checks that a client leaks no connection. */
public final class Sockets {
  private Sockets() {}

  /**
   * How many of process {@code pid}'s open TCP sockets have {@code remotePort} as their peer's port
   * (any state: an established connection, or one the peer closed that is still open here).
   *
   * @throws IllegalStateException where /proc cannot be read (not Linux)
   */
  public static int toPort(long pid, int remotePort) {
    Set<String> inodes = new HashSet<>();
    for (String table : new String[] {"tcp", "tcp6"}) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      try {
        for (String line : Files.readAllLines(file)) {
          String[] f = line.trim().split("\\s+");
          // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
          if (f.length > 9 && f[2].contains(":")
              && Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16) == remotePort) {
            inodes.add(f[9]);
          }
        }
      } catch (IOException | NumberFormatException e) {
        throw new IllegalStateException("cannot read " + file + ": " + Errors.oneLine(e));
      }
    }
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      return (int) fds.map(Sockets::link).filter(l -> l.startsWith("socket:[")
          && inodes.contains(l.substring(8, l.length() - 1))).count();
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the descriptors of process " + pid + ": " + Errors.oneLine(e));
    }
  }

  private static String link(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return ""; // closed meanwhile
    }
  }
}
