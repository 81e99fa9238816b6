package protocols.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.rpc.RpcSettings;
import protocols.rpc.Tls;

/** No connection of Dubbo's is given up on before its first call may time out (SlowFirstConnectionTest shows why). */
class DubboConnectionSettingsTest {
  private static final RpcSettings PLAIN = RpcSettings.defaults(20880);

  @Test
  void aLongCallTimeoutLengthensTheConnectAndIdleWaitsWithIt() {
    Map<String, String> p = DubboConnectionSettings.of(PLAIN.withTimeout(Duration.ofSeconds(20)));
    assertEquals("20000", p.get("connect.timeout"));
    assertEquals("21000", p.get("heartbeat.timeout"));
    assertEquals("1000", p.get("heartbeat"));
    assertEquals("1000", p.get("dubbo.application.least-reconnect-duration"));
  }

  @Test
  void aShortCallTimeoutKeepsDubbosOwnLeastWaits() {
    Map<String, String> p = DubboConnectionSettings.of(PLAIN.withTimeout(Duration.ofMillis(500)));
    assertEquals("3000", p.get("connect.timeout"));
    assertEquals("3000", p.get("heartbeat.timeout"));
  }

  @Test
  void overTlsTheConnectWaitStopsAtTenSecondsSinceARefusedHandshakeWaitsItWhole() {
    RpcSettings tls = PLAIN.withTimeout(Duration.ofSeconds(40)).withTls(Tls.trusting(Paths.get("ca.pem")));
    Map<String, String> p = DubboConnectionSettings.of(tls);
    assertEquals("10000", p.get("connect.timeout"));
    assertEquals("41000", p.get("heartbeat.timeout"));
  }

  @Test
  void anEndlessCallTimeoutDoesNotOverflow() {
    Map<String, String> p = DubboConnectionSettings.of(PLAIN.withTimeout(Duration.ofDays(365_000)));
    assertEquals(Integer.toString(Integer.MAX_VALUE), p.get("heartbeat.timeout"));
    assertEquals(Long.toString(Integer.MAX_VALUE - 1_000), p.get("connect.timeout"));
  }
}
