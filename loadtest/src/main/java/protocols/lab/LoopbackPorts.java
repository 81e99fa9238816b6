package protocols.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for servers the lab starts. A port found free and released before the server binds
 * it can be taken in between: by the kernel's next {@code bind(0)} in this JVM (the same port came
 * back within four calls about once in 1,250 here), or as the local port of any outgoing connection.
 * So ports are drawn below the kernel's ephemeral range, which neither {@code bind(0)} nor
 * {@code connect()} ever hands out, and never twice in one JVM. Processes that run side by side (the
 * parallel forks of the integration tests) each get a share of that range through {@value #SHARE_ENV}
 * ("k/n": the k-th of n shares), which everything they start inherits.
 */
public final class LoopbackPorts {
  /** Below it sit the well-known ports and the frameworks' defaults (20880, 50051, 10000, ...). */
  private static final int LOWEST = 21_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
  /** Environment variable with this process tree's share of the range, "k/n"; the whole range without it. */
  public static final String SHARE_ENV = "RPC_LAB_PORT_SHARE";

  private LoopbackPorts() {}

  /** A loopback port free now, below the ephemeral range, not handed out before by this JVM. */
  public static int next() {
    int[] range = share(System.getenv(SHARE_ENV), LOWEST, ephemeralLow(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
    InetAddress loopback = InetAddress.getLoopbackAddress();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(range[0], range[1]);
      if (!HANDED_OUT.add(port)) {
        continue;
      }
      try (ServerSocket probe = new ServerSocket()) {
        probe.bind(new InetSocketAddress(loopback, port), 1);
        return port;
      } catch (IOException inUse) {
        // another process has it: draw again
      }
    }
    throw new IllegalStateException("no free loopback port between " + range[0] + " and " + range[1] + " after 200 tries");
  }

  /** The k-th of n equal shares of [low, high) for {@code "k/n"}; all of it when not set. */
  static int[] share(String kOfN, int low, int high) {
    if (kOfN == null || kOfN.isBlank()) {
      return new int[] {low, high};
    }
    String[] parts = kOfN.trim().split("/");
    int k;
    int n;
    try {
      k = Integer.parseInt(parts[0]);
      n = Integer.parseInt(parts[1]);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(SHARE_ENV + "=" + kOfN + ": expected k/n, such as 1/2");
    }
    if (parts.length != 2 || n < 1 || k < 1 || k > n) {
      throw new IllegalArgumentException(SHARE_ENV + "=" + kOfN + ": expected k/n with 1 <= k <= n");
    }
    int size = (high - low) / n;
    return new int[] {low + (k - 1) * size, low + k * size};
  }

  /** The first port of the kernel's ephemeral range (Linux), or the IANA range's 49152 elsewhere. */
  static int ephemeralLow(Path range) {
    try {
      // Not Files.readString: /proc gives its files a size of 0, and readString then returned "3"
      // of "32768 60999" here (JDK 17), so every port came from the IANA fallback's wider range.
      int low = Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]);
      return low > LOWEST + 1_000 ? low : 49_152;
    } catch (IOException | RuntimeException e) {
      return 49_152;
    }
  }
}
