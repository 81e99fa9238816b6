package protocols.rpc;

/** The one wording of a size-limit KO, so every framework's says which limit and how to raise it. */
public final class SizeLimit {
  /** The error code of a size-limit KO. */
  public static final String CODE = "size limit";

  private SizeLimit() {}

  /**
   * @param what "request", "reply" or "message"
   * @param bytes the message's size, or -1 if the framework does not say
   * @param limit the limit that refused it
   * @param serverFlag the echo server's flag for its own limit
   */
  public static String message(String framework, String what, long bytes, long limit, String serverFlag) {
    return what + (bytes >= 0 ? " of " + bytes + " bytes" : "") + " is over the " + limit + "-byte " + framework
        + " message limit: raise it with -DmaxMessageBytes (DSL maxMessageBytes), and on a server of your own with "
        + serverFlag;
  }
}
