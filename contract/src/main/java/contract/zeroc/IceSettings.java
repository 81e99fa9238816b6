package contract.zeroc;

import com.zeroc.Ice.Properties;
import com.zeroc.Ice.Util;

/** Ice settings both sides share. */
public final class IceSettings {
  /** The servant's identity on the server's adapter. */
  public static final String IDENTITY = "echo";
  /**
   * The replica group every echo server's adapter joins when it registers with IceGrid: a client's
   * indirect proxy {@code echo@EchoGroup} reaches all of them through the locator.
   */
  public static final String REPLICA_GROUP = "EchoGroup";
  /** IceGrid's default instance name: its locator is the object {@code IceGrid/Locator}. */
  public static final String LOCATOR = "IceGrid/Locator";
  /** Echo messages are ~100 bytes; a larger one is refused (MemoryLimitException). */
  public static final int DEFAULT_MAX_MESSAGE = 1024 * 1024;

  private IceSettings() {}

  /** Fresh properties with Ice.MessageSizeMax (which Ice counts in KiB) set from {@code maxMessageBytes}. */
  public static Properties properties(int maxMessageBytes) {
    Properties p = Util.createProperties();
    p.setProperty("Ice.MessageSizeMax", Integer.toString(Math.max(1, (maxMessageBytes + 1023) / 1024)));
    // Order.ice maps module zeroc to package contract.zeroc: without this, Ice cannot find the class
    // of a user exception it receives (BadRequest) and reports UnknownUserException instead.
    p.setProperty("Ice.Package.zeroc", "contract");
    return p;
  }
}
