package servers.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import contract.thrift.MobileService;
import contract.thrift.Order;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;

/** Oversized and garbage frames close that connection only; the server keeps serving others. */
class GarbageFrameTest {
  private static int port;
  private static EchoServerMain.RunningServer server;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Map<String, String> defaults = ThriftEchoServer.defaults(port);
    defaults.putAll(Map.of("threads", "4", "selectors", "1", "protocol", "binary", "max-frame", "65536"));
    server = ThriftEchoServer.start(ServerFlags.parse(new String[0], defaults), "127.0.0.1", port, java.util.Optional.empty());
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
  }

  @Test
  void oversizedFrameIsRefused() throws Exception {
    assertClosedAfterSending(frameHeader(Integer.MAX_VALUE));
    assertEchoStillWorks();
  }

  @Test
  void negativeFrameSizeIsRefused() throws Exception {
    assertClosedAfterSending(frameHeader(-5));
    assertEchoStillWorks();
  }

  @Test
  void garbageInsideAFrameIsRefused() throws Exception {
    byte[] garbage = new byte[64];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = (byte) (0xA5 ^ i);
    }
    byte[] frame = new byte[4 + garbage.length];
    System.arraycopy(frameHeader(garbage.length), 0, frame, 0, 4);
    System.arraycopy(garbage, 0, frame, 4, garbage.length);
    assertClosedAfterSending(frame);
    assertEchoStillWorks();
  }

  @Test
  void aHundredBadConnectionsInARowDoNotTakeItDown() throws Exception {
    for (int i = 0; i < 100; i++) {
      assertClosedAfterSending(frameHeader(Integer.MAX_VALUE - i));
    }
    assertEchoStillWorks();
  }

  private static byte[] frameHeader(int size) {
    return new byte[] {(byte) (size >>> 24), (byte) (size >>> 16), (byte) (size >>> 8), (byte) size};
  }

  /** The server closes the connection (end of stream) instead of waiting for or answering the frame. */
  private static void assertClosedAfterSending(byte[] bytes) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5_000);
      new DataOutputStream(s.getOutputStream()).write(bytes);
      InputStream in = s.getInputStream();
      int read;
      try {
        read = in.read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the server kept the bad connection open");
      } catch (IOException reset) {
        return; // connection reset: refused too
      }
      assertEquals(-1, read, "the server answered a bad frame");
    }
  }

  private static void assertEchoStillWorks() throws Exception {
    try (TTransport t = new TFramedTransport(new TSocket("127.0.0.1", port, 5_000))) {
      t.open();
      MobileService.Client client = new MobileService.Client(new TBinaryProtocol(t));
      Order order = new Order(7, "p", "n", "o", 1, 2, 3.5, 4);
      assertEquals(order, client.hello(order));
    }
  }

  @Test
  void wrongProtocolFlagIsRefused() {
    Map<String, String> defaults = ThriftEchoServer.defaults(port);
    defaults.putAll(Map.of("threads", "1", "selectors", "1", "protocol", "json", "max-frame", "65536"));
    assertThrows(IllegalArgumentException.class,
        () -> ThriftEchoServer.start(ServerFlags.parse(new String[0], defaults), "127.0.0.1", port, java.util.Optional.empty()));
  }
}
