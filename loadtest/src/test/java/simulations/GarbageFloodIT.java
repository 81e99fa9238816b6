package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import protocols.frameworks.Frameworks;
import protocols.lab.RpcFramework;
import protocols.lab.EchoRun;
import protocols.lab.EmbeddedServer;
import protocols.lab.LoadParams;

/**
 * Every server under garbage connections and a frame declared at 2 GiB, then streamed: each bad
 * connection is closed, the log stays bounded (Thrift once wrote a line per connection, gRPC a stack
 * trace per connection, Dubbo a stack trace per 8 MiB read), memory stays bounded (Dubbo once buffered
 * the whole stream), and the server still answers an echo. {@code -Dflood.connections} sets the count.
 */
class GarbageFloodIT {
  private static final int CONNECTIONS = Integer.getInteger("flood.connections", 2_000);
  private static final long STREAMED = 64L * 1024 * 1024;
  /** Lines the servers' log limit lets through per 10-s window: 5 records of 4 lines, and its own line. */
  private static final int LINES_PER_WINDOW = 21;
  private static final long MAX_GROWTH = 400L << 20;

  @ParameterizedTest
  @MethodSource("protocols.frameworks.Frameworks#names")
  void garbageIsClosedTheLogAndMemoryStayBoundedAndTheServerStillServes(String name) throws Exception {
    RpcFramework<?, ?> framework = Frameworks.byName(name);
    LoadParams params = new LoadParams(Map.of());
    try (EmbeddedServer server = EmbeddedServer.start(name, framework.serverMainClass(), framework.serverArgs(params))) {
      InetSocketAddress target = new InetSocketAddress(server.address().host(), server.address().port());
      EchoRun.probe(framework, params, server.address(), "embedded");
      long rssBefore = server.residentBytes();
      long t0 = System.nanoTime();
      GarbageFlood.Outcome random = GarbageFlood.connections(target, CONNECTIONS, 8, GarbageFlood.randomBytes(256, 1));
      GarbageFlood.Outcome http = GarbageFlood.connections(target, CONNECTIONS / 10, 8, GarbageFlood.HTTP_GET);
      GarbageFlood.Outcome huge = GarbageFlood.hugeFrame(target, GarbageFlood.hugeFrameHeader(name), STREAMED);
      long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
      EchoRun.probe(framework, params, server.address(), "embedded");
      long rssAfter = server.residentBytes();
      long lines = server.logLines();
      System.out.printf("%s: %d garbage + %d HTTP connections, closed by the server %d + %d; 2 GiB frame: closed %s"
              + " after %d bytes; %d s; log lines %d; resident memory %d -> %d MiB%n", name, random.connections(),
          http.connections(), random.closedByServer(), http.closedByServer(), huge.closedByServer() == 1,
          huge.bytesAccepted(), seconds, lines, rssBefore >> 20, rssAfter >> 20);

      assertEquals(random.connections(), random.closedByServer(), name + ": every garbage connection is closed");
      assertEquals(http.connections(), http.closedByServer(), name + ": every HTTP connection is closed");
      assertEquals(1, huge.closedByServer(), name + ": the 2 GiB frame's connection is closed");
      assertTrue(huge.bytesAccepted() < STREAMED, name + ": the server stopped taking the stream");
      long maxLines = LINES_PER_WINDOW * (seconds / 10 + 2);
      assertTrue(lines <= maxLines, name + ": " + lines + " log lines for " + (random.connections() + http.connections()
          + 1) + " bad connections, over " + maxLines + ":\n" + java.nio.file.Files.readString(server.log()));
      assertTrue(rssAfter - rssBefore < MAX_GROWTH, name + ": memory grew " + ((rssAfter - rssBefore) >> 20) + " MiB");
      assertTrue(server.isAlive());
    }
  }
}
