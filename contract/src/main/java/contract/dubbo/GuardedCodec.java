package contract.dubbo;

import java.io.IOException;
import org.apache.dubbo.common.logger.Logger;
import org.apache.dubbo.common.logger.LoggerFactory;
import org.apache.dubbo.remoting.Channel;
import org.apache.dubbo.remoting.Codec2;
import org.apache.dubbo.remoting.Constants;
import org.apache.dubbo.remoting.buffer.ChannelBuffer;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * Dubbo's own codec, except that a connection sending what no Dubbo consumer sends is closed at once,
 * with one log line: bytes that are not a Dubbo frame, a header declaring a body over the payload limit
 * (URL parameter {@code payload}, Dubbo's default 8 MiB), or a frame Dubbo cannot decode. Dubbo 3.3
 * itself passes the first to its telnet decoder, buffers the second until the whole body has come
 * (a 2 GiB header held the connection and grew the server's memory), and logs a stack trace per read.
 * Server side only: {@link ExactAddressTransporter} puts it on the servers it binds.
 */
public final class GuardedCodec implements Codec2 {
  /** Extension name (META-INF/dubbo/org.apache.dubbo.remoting.Codec2). */
  public static final String NAME = "guarded-dubbo";

  private static final Logger LOG = LoggerFactory.getLogger(GuardedCodec.class);
  private static final int HEADER_LENGTH = 16;
  private static final byte MAGIC_HIGH = (byte) 0xda;
  private static final byte MAGIC_LOW = (byte) 0xbb;
  private static final String REFUSED = "guarded.refused";

  private final Codec2 dubbo;

  public GuardedCodec(FrameworkModel model) {
    this.dubbo = model.getExtensionLoader(Codec2.class).getExtension("dubbo");
  }

  @Override
  public void encode(Channel channel, ChannelBuffer buffer, Object message) throws IOException {
    dubbo.encode(channel, buffer, message);
  }

  @Override
  public Object decode(Channel channel, ChannelBuffer buffer) throws IOException {
    if (channel.hasAttribute(REFUSED)) {
      return drop(buffer); // bytes already in flight when the connection was refused
    }
    int start = buffer.readerIndex();
    int readable = buffer.readableBytes();
    if (readable >= 2 && (buffer.getByte(start) != MAGIC_HIGH || buffer.getByte(start + 1) != MAGIC_LOW)) {
      return refuse(channel, buffer, String.format("not a Dubbo frame (first bytes 0x%02x%02x)",
          buffer.getByte(start), buffer.getByte(start + 1)));
    }
    if (readable >= HEADER_LENGTH) {
      int length = bodyLength(buffer, start);
      int payload = channel.getUrl().getParameter(Constants.PAYLOAD_KEY, Constants.DEFAULT_PAYLOAD);
      if (length < 0 || length > payload) {
        return refuse(channel, buffer, "frame declares a " + length + "-byte body, over the " + payload
            + "-byte payload limit (server flag --payload)");
      }
    }
    try {
      return dubbo.decode(channel, buffer);
    } catch (IOException | RuntimeException e) {
      return refuse(channel, buffer, "undecodable frame: " + e);
    }
  }

  private static int bodyLength(ChannelBuffer buffer, int start) {
    int at = start + 12;
    return (buffer.getByte(at) & 0xff) << 24 | (buffer.getByte(at + 1) & 0xff) << 16
        | (buffer.getByte(at + 2) & 0xff) << 8 | buffer.getByte(at + 3) & 0xff;
  }

  private static Object refuse(Channel channel, ChannelBuffer buffer, String why) {
    channel.setAttribute(REFUSED, Boolean.TRUE);
    LOG.warn("closed the connection from " + channel.getRemoteAddress() + ": " + why);
    channel.close();
    return drop(buffer);
  }

  private static Object drop(ChannelBuffer buffer) {
    buffer.skipBytes(buffer.readableBytes());
    return DecodeResult.NEED_MORE_INPUT;
  }
}
