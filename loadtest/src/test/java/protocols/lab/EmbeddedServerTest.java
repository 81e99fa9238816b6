package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import servers.netty.NettyEchoServer;

/** How the lab gets ports for its servers, and what it says when one does not start. */
class EmbeddedServerTest {

  /** bind(0) gave the same port back within four calls about once in 1,250: a released port was reused. */
  @Test
  void portsAreNeverHandedOutTwiceAndNeverFromTheEphemeralRange() {
    int low = LoopbackPorts.ephemeralLow(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 3_000; i++) {
      int port = LoopbackPorts.next();
      assertTrue(seen.add(port), "port " + port + " handed out twice (after " + i + ")");
      assertTrue(port < low, "port " + port + " is in the ephemeral range from " + low);
    }
  }

  /** /proc's files say they are empty: Files.readString read "3" of "32768 60999", and the fallback's 49152 was used. */
  @Test
  void theKernelsOwnRangeFileIsReadWhole() throws Exception {
    Path kernel = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(kernel), "Linux only");
    String said;
    try (var in = Files.newInputStream(kernel)) {
      said = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim().split("\\s+")[0];
    }
    int low = Integer.parseInt(said);
    org.junit.jupiter.api.Assumptions.assumeTrue(low > 22_000, "a kernel range the lab can use: " + said);
    assertEquals(low, LoopbackPorts.ephemeralLow(kernel));
  }

  @Test
  void theEphemeralRangeIsReadFromTheKernelOrTakenAsIanas(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path range = dir.resolve("range");
    Files.writeString(range, "40000\t60999\n");
    assertEquals(40_000, LoopbackPorts.ephemeralLow(range));
    assertEquals(49_152, LoopbackPorts.ephemeralLow(dir.resolve("absent")));
  }

  /** Failsafe's parallel forks (and all they start) draw from disjoint shares, so they never race for a port. */
  @Test
  void processesRunningSideBySideDrawFromDisjointShares() {
    int[] first = LoopbackPorts.share("1/2", 21_000, 32_768);
    int[] second = LoopbackPorts.share("2/2", 21_000, 32_768);
    assertEquals(21_000, first[0]);
    assertEquals(first[1], second[0], "adjacent, not overlapping");
    assertTrue(second[1] <= 32_768 && second[0] - first[0] == second[1] - second[0], "equal shares inside the range");
    assertEquals(List.of(21_000, 32_768), java.util.Arrays.stream(LoopbackPorts.share(null, 21_000, 32_768)).boxed().toList());
    for (String wrong : List.of("3/2", "0/2", "two", "1/0")) {
      assertTrue(assertThrows(IllegalArgumentException.class, () -> LoopbackPorts.share(wrong, 21_000, 32_768))
          .getMessage().startsWith(LoopbackPorts.SHARE_ENV + "=" + wrong + ": expected"), wrong);
    }
  }

  /** A server that exits at once is said to have exited, with its status and its own last line, and its log is kept. */
  @Test
  void aServerThatExitsIsReportedAsExitedWithItsStatusAndLastLines() throws Exception {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> EmbeddedServer.start("netty", NettyEchoServer.class.getName(), List.of("--no-such-flag", "1")));
    String message = e.getMessage();
    assertTrue(message.matches("embedded netty server exited with status 2 after \\d+\\.\\d s without its ready line: "
        + ".*unknown flag --no-such-flag.* \\(its log: .+\\)"), message);
    Path log = Path.of(message.substring(message.lastIndexOf("(its log: ") + 10, message.length() - 1));
    assertTrue(Files.readString(log).contains("unknown flag --no-such-flag"), "the log is kept: " + log);
    Files.delete(log);
  }
}
