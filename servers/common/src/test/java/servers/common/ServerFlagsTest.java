package servers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerFlagsTest {
  private static final Map<String, String> DEFAULTS = Map.of("host", "127.0.0.1", "port", "20880", "threads", "200");

  @Test
  void defaultsAndBothFlagStyles() {
    ServerFlags f = ServerFlags.parse(new String[] {"--port", "9000", "--threads=8"}, DEFAULTS);
    assertEquals("127.0.0.1", f.get("host"));
    assertEquals(9000, f.intValue("port", 1, 65535));
    assertEquals(8, f.intValue("threads", 1, 100));
  }

  @Test
  void badFlagsAreOneLineErrors() {
    assertMessage("unknown flag --prot", "--prot", "1");
    assertMessage("flag --port needs a value", "--port");
    assertMessage("unexpected argument 'x'", "x");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServerFlags.parse(new String[] {"--port", "http"}, DEFAULTS).intValue("port", 1, 65535));
    assertEquals("--port must be a whole number, got 'http'", e.getMessage());
  }

  @Test
  void portInUseIsReportedBeforeTheFrameworkStarts() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> EchoServerMain.checkPortFree("127.0.0.1", taken.getLocalPort()));
      assertTrue(e.getMessage().contains("already in use"), e.getMessage());
    }
  }

  private static void assertMessage(String expected, String... args) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServerFlags.parse(args, DEFAULTS));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
  }
}
