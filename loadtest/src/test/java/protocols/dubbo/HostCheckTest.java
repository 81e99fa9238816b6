package protocols.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.ssl.SslContextBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.lab.JvmCommand;

/**
 * Netty's default host check is JVM-wide and read once: a JVM not started for TLS keeps it; Dubbo's TLS
 * client turns it off in a JVM that has not read it yet (a plain driver), and says in one line what a
 * JVM that has (Gatling's) needs. Each case in a fresh JVM, started as the lab starts its own.
 */
class HostCheckTest {

  /** Prints Netty's default host check after the steps named in {@code args}, and Dubbo's refusal if any. */
  public static void main(String[] args) throws Exception {
    for (String step : args) {
      if (step.equals("netty-client")) {
        SslContextBuilder.forClient().build(); // a user's own Netty TLS client, or another framework's
      } else {
        try {
          DubboTls.allowEnginesWithoutHost();
        } catch (IllegalStateException e) {
          System.out.println("refused: " + e.getMessage());
        }
      }
    }
    System.out.println("check: " + DubboTls.nettyDefaultNameCheck());
  }

  private static List<String> run(String... steps) throws Exception {
    Process p = new ProcessBuilder(JvmCommand.of(List.of(), HostCheckTest.class.getName(), List.of(steps)))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return out.lines().filter(l -> l.startsWith("check: ") || l.startsWith("refused: ")).toList();
  }

  @Test
  void aJvmWithoutDubboTlsKeepsNettysHostCheck() throws Exception {
    assertEquals(List.of("check: HTTPS"), run("netty-client"));
  }

  @Test
  void dubboTlsTurnsItOffOnlyWhenFirst() throws Exception {
    assertEquals(List.of("check: null"), run("dubbo", "netty-client"));
    List<String> late = run("netty-client", "dubbo");
    assertEquals(2, late.size(), late.toString());
    assertEquals("refused: Dubbo's TLS client cannot run in this JVM: Netty's default host check is HTTPS (read once,"
        + " when the JVM first loaded Netty's SslContext: Gatling does at its start), and Dubbo 3.3.6 makes its TLS"
        + " engine without the server's host; start the JVM with"
        + " -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE (./mvnw gatling:test adds it when -Dtls"
        + " is given; docs/tls.md)", late.get(0));
  }
}
