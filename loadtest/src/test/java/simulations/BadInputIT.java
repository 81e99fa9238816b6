package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import protocols.lab.JvmCommand;
import servers.dubbo.DubboEchoServer;

/** Bad input ends a run at once with one clear line and a non-zero exit, never a hang or a stack trace. */
class BadInputIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "bad-input");
  private static final Duration LIMIT = Duration.ofSeconds(90);

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "levels   | 1,x            | error: -Dlevels must be a comma-separated list",
      "levles   | 5              | error: -Dlevles is not a parameter of this lab: did you mean -Dlevels?",
      "rates    | fast           | error: -Drates must be auto or a comma-separated list",
      "target   | nohost         | error: -Dtarget: expected host:port",
      "target   | 127.0.0.1:1    | error: cannot reach the dubbo server at 127.0.0.1:1",
      "mode     | blocking       | error: mode must be async, sync or callback",
      "startAt  | 2020-01-01T00:00:00Z | error: -DstartAt=2020-01-01T00:00:00Z was",
      "injectors | 2,x           | error: -Dinjectors must be a whole number",
      "warmup   | soon           | error: -Dwarmup must be auto or a whole number of seconds",
      "settle   | later          | error: -Dsettle must be auto or a whole number of seconds",
      "cpus     | 0-1/1          | error: -Dcpus gives CPU 1 to both the injector and the servers",
      "maxKoPercent | lots       | error: -DmaxKoPercent must be a number from 0 to 100",
      "serialization | java      | error: -Dserialization must be one of hessian2|kryo|fastjson2",
      "maxMessageBytes | 10      | error: -DmaxMessageBytes must be a whole number from 1024",
      "registry | zookeeper://127.0.0.1:1 | error: cannot reach the zookeeper registry at 127.0.0.1:1 (-Dregistry)",
      "registry | etcd           | error: -Dregistry must be none, zookeeper, icegrid",
      "registry | icegrid        | error: -Dregistry=icegrid: dubbo has no icegrid registry",
      "providers | 0             | error: -Dproviders must be a whole number from 1 to 16",
      "faults   | kill@1s:provider=2 | error: -Dfaults: kill provider 2: there is no provider 2 of 1 (-Dproviders)",
      "metrics.port | abc        | error: -Dmetrics.port must be a whole number from 1 to 65535",
      "tls      | maybe          | error: -Dtls must be false, true or mutual",
      "tls.ca   | /no/such/ca.pem | error: -Dtls.ca=/no/such/ca.pem: no readable file there",
      // An order over Dubbo's 8 MiB payload limit: the first call says which limit, and how to raise it.
      "orderNameChars | 9000000  | error: the first dubbo echo call to 127.0.0.1:"})
  void badParameterIsOneLine(String name, String value, String expected) throws Exception {
    GatlingProcess.Result run =
        GatlingProcess.run("DubboEcho", Map.of(name, value), RESULTS.resolve(name + "-" + value.hashCode()),
            LIMIT);
    assertNotEquals(0, run.exitCode());
    assertOneLine(run.output(), expected);
  }

  @Test
  void serverOnAPortInUseSaysSo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Process p = new ProcessBuilder(JvmCommand.of(List.of(), DubboEchoServer.class.getName(),
          List.of("--port", Integer.toString(taken.getLocalPort())))).redirectErrorStream(true).start();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "server gave up in time");
      String out = new String(p.getInputStream().readAllBytes());
      assertNotEquals(0, p.exitValue());
      assertOneLine(out, "dubbo echo server: port " + taken.getLocalPort() + " on 127.0.0.1 is already in use");
    }
  }

  @Test
  void unknownServerFlagSaysSo() throws Exception {
    Process p = new ProcessBuilder(JvmCommand.of(List.of(), DubboEchoServer.class.getName(),
        List.of("--serialisation", "kryo"))).redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue());
    assertOneLine(new String(p.getInputStream().readAllBytes()), "dubbo echo server: unknown flag --serialisation");
  }

  private static void assertOneLine(String output, String expectedStart) {
    long matching = output.lines().filter(l -> l.startsWith(expectedStart)).count();
    assertEquals(1, matching, "one line starting with '" + expectedStart + "' in:\n" + output);
    assertFalse(output.lines().anyMatch(l -> l.trim().startsWith("at ")), "no stack trace in:\n" + output);
  }
}
