package servers.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import contract.SampleOrder;
import contract.pojo.Order;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.dubbo.common.utils.DefaultSerializeClassChecker;
import org.apache.dubbo.rpc.model.FrameworkModel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;

/**
 * What the echo server's STRICT check admits: the classes Dubbo derives from MobileService's signatures
 * and the prefixes of Dubbo's built-in allow list. A class in neither is never loaded, let alone
 * instantiated (docs/servers.md: "Dubbo's deserialization").
 */
class SerializationAllowListTest {
  private static final byte STATUS_OK = 20;
  /** Entries in dubbo-3.3.6.jar's security/serialize.allowlist (prefixes of class names). */
  private static final int BUILT_IN_ENTRIES = 140;
  private static final Logger CHECKER_LOG = Logger.getLogger(DefaultSerializeClassChecker.class.getName());
  private static int port;
  private static EchoServerMain.RunningServer server;

  /** In neither list; its constructor runs if Hessian ever instantiates it. */
  public static final class Smuggled implements Serializable {
    static final AtomicBoolean INSTANTIATED = new AtomicBoolean();

    public Smuggled() {
      INSTANTIATED.set(true);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    server = DubboEchoServer.start(ServerFlags.parse(new String[] {"--threads", "4", "--serialization", "hessian2"},
        DubboEchoServer.defaults(port)), "127.0.0.1", port, java.util.Optional.empty());
    CHECKER_LOG.setLevel(Level.OFF); // the refusals this test provokes, a line each
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
  }

  @Test
  void theContractsOrderIsEchoed() throws Exception {
    Reply reply = hello(new Order(42, SampleOrder.PHONE, SampleOrder.NAME, SampleOrder.ORDER_NUM, 1, 2, 3.5, 4));
    assertEquals(STATUS_OK, reply.status(), reply.text());
    assertTrue(reply.text().contains("orderId=42"), reply.text());
  }

  @Test
  void aClassInNeitherListIsNeverLoadedItsFieldsAreDroppedIntoAnEmptyOrder() throws Exception {
    for (Object smuggled : List.of(new Smuggled(), new File("/etc/passwd"))) {
      Smuggled.INSTANTIATED.set(false);
      Reply reply = hello(smuggled);
      // Hessian reads a refused class's fields into the declared type: the echo answers an empty Order.
      assertEquals(STATUS_OK, reply.status(), reply.text());
      assertTrue(reply.text().contains("orderId=0, phone=null"), reply.text());
      assertFalse(Smuggled.INSTANTIATED.get(), "the refused class was instantiated");
    }
  }

  @Test
  void strictAdmitsTheContractAndDubbosBuiltInListAndNothingElse() throws Exception {
    // The check Hessian makes for every class name it reads, in the server's own framework model.
    DefaultSerializeClassChecker checker =
        FrameworkModel.defaultModel().getBeanFactory().getBean(DefaultSerializeClassChecker.class);
    ClassLoader loader = getClass().getClassLoader();
    List<String> builtIn;
    try (InputStream in = DefaultSerializeClassChecker.class.getClassLoader()
        .getResourceAsStream("security/serialize.allowlist")) {
      builtIn = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
          .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }
    assertEquals(BUILT_IN_ENTRIES, builtIn.size(), "docs/servers.md states the size of Dubbo's built-in allow list");
    for (String name : builtIn) {
      if (!Character.isLowerCase(name.charAt(0)) || name.contains(".")) {
        loadIfPresent(checker, loader, name);
      }
    }
    for (String admitted : List.of(Order.class.getName(), "java.lang.String",
        "java.util.HashMap", "java.util.concurrent.atomic.AtomicLong", "java.math.BigDecimal")) {
      assertEquals(admitted, checker.loadClass(loader, admitted).getName());
    }
    for (String refused : List.of(Smuggled.class.getName(), "java.io.File", "java.net.URL", "java.lang.ProcessBuilder",
        "javax.naming.InitialContext", "servers.common.ServerFlags")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> checker.loadClass(loader, refused));
      assertTrue(e.getMessage().contains(refused + " is not in allow list"), e.getMessage());
    }
  }

  private static void loadIfPresent(DefaultSerializeClassChecker checker, ClassLoader loader, String name) {
    try {
      checker.loadClass(loader, name);
    } catch (ClassNotFoundException notOnThisJdk) {
      // admitted by the check, absent from the class path
    } catch (IllegalArgumentException e) {
      // Admitted by the list, refused by STRICT's second rule: only Serializable classes.
      assertTrue(e.getMessage().contains("has not implement Serializable"), e.getMessage());
    }
  }

  record Reply(byte status, String text) {}

  /** MobileService.hello(Order) as DubboCodec writes it, with {@code argument} in the Order's place. */
  private static Reply hello(Object argument) throws Exception {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(body);
    out.writeString("2.0.2");
    out.writeString("contract.dubbo.MobileService");
    out.writeString("0.0.0");
    out.writeString("hello");
    out.writeString("Lcontract/pojo/Order;");
    out.writeObject(argument);
    out.writeObject(Map.of("path", "contract.dubbo.MobileService", "interface", "contract.dubbo.MobileService"));
    out.flush();
    byte[] payload = body.toByteArray();
    // magic, request + two-way + hessian2 (2), status, call id, body length
    byte[] header = ByteBuffer.allocate(16).putShort((short) 0xdabb).put((byte) 0xc2).put((byte) 0).putLong(1)
        .putInt(payload.length).array();
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(header);
      s.getOutputStream().write(payload);
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] replyHeader = new byte[16];
      in.readFully(replyHeader);
      byte[] replyBody = new byte[ByteBuffer.wrap(replyHeader, 12, 4).getInt()];
      in.readFully(replyBody);
      Hessian2Input reply = new Hessian2Input(new ByteArrayInputStream(replyBody));
      byte status = replyHeader[3];
      // An error reply's body is its message; an OK reply's starts with a flag, then the value.
      return new Reply(status, status == STATUS_OK ? "flag " + reply.readInt() + ": " + reply.readObject()
          : reply.readString());
    }
  }
}
