package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HostPortTest {
  @Test
  void parsesHostAndPort() {
    assertEquals(new HostPort("127.0.0.1", 20880), HostPort.parse("127.0.0.1:20880"));
    assertEquals(new HostPort("::1", 9090), HostPort.parse("[::1]:9090"));
    assertEquals("[::1]:9090", HostPort.parse("[::1]:9090").toString());
  }

  @Test
  void rejectsMalformedInput() {
    for (String bad : new String[] {"", "host", "host:", ":80", "host:port", "host:0", "host:65536"}) {
      assertThrows(IllegalArgumentException.class, () -> HostPort.parse(bad), bad);
    }
  }
}
