package protocols.rpc;

/** The one wording of a size-limit KO, so every framework's says which limit and how to raise it. */
public final class SizeLimit {
  /** The error code of a size-limit KO. */
  public static final String CODE = "size limit";

  /** Netty's TooLongFrameException: "Adjusted frame length exceeds 65536: 100012 - discarded". */
  private static final java.util.regex.Pattern TOO_LONG = java.util.regex.Pattern.compile("exceeds \\d+: (\\d+)");

  private SizeLimit() {}

  /**
   * A frame Netty's length-field decoder refused as over its limit: its length as Netty's message gives it
   * (-1 if it does not say); empty when {@code error} is no such refusal.
   */
  public static java.util.OptionalLong tooLongFrame(Throwable error) {
    if (!(error instanceof io.netty.handler.codec.DecoderException d
        && d.getCause() instanceof io.netty.handler.codec.TooLongFrameException
        || error instanceof io.netty.handler.codec.TooLongFrameException)) {
      return java.util.OptionalLong.empty();
    }
    java.util.regex.Matcher m = TOO_LONG.matcher(String.valueOf(error.getMessage()));
    return java.util.OptionalLong.of(m.find() ? Long.parseLong(m.group(1)) : -1);
  }

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
