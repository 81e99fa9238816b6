package contract.netty;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import contract.pojo.Order;
import io.netty.buffer.ByteBuf;

/**
 * The ceiling's wire format, as thin as an RPC can be: {@code [int length][long call id][Kryo Order]}.
 * Kryo requires registration and only {@link Order} is registered, so no other class is ever
 * instantiated. Kryo instances are not thread-safe: one per thread.
 */
public final class EchoFrames {
  /** Bytes of the length prefix. */
  public static final int LENGTH_BYTES = 4;
  /** Echo frames are ~100 bytes; a longer one is refused and its connection closed. */
  public static final int DEFAULT_MAX_FRAME = 64 * 1024;

  private static final ThreadLocal<Kryo> KRYO = ThreadLocal.withInitial(EchoFrames::newKryo);
  // Unbounded: write() checks the frame against the caller's limit, so the error can say by how much.
  private static final ThreadLocal<Output> OUTPUT = ThreadLocal.withInitial(() -> new Output(256, -1));

  private EchoFrames() {}

  static Kryo newKryo() {
    Kryo kryo = new Kryo();
    kryo.setRegistrationRequired(true);
    kryo.setReferences(false);
    kryo.register(Order.class);
    return kryo;
  }

  /** A frame longer than the limit in force; nothing was written. */
  public static final class FrameTooLarge extends RuntimeException {
    private final long size;
    private final int limit;

    FrameTooLarge(long size, int limit) {
      super("frame of " + size + " bytes is over the " + limit + "-byte limit", null, false, false);
      this.size = size;
      this.limit = limit;
    }

    public long size() {
      return size;
    }

    public int limit() {
      return limit;
    }
  }

  /**
   * Writes one whole frame, length prefix included.
   *
   * @throws FrameTooLarge if the frame (call id and order) would be longer than {@code maxFrame}
   */
  public static void write(ByteBuf out, long callId, Order order, int maxFrame) {
    Output o = OUTPUT.get();
    o.reset();
    KRYO.get().writeObject(o, order);
    if (Long.BYTES + o.position() > maxFrame) {
      throw new FrameTooLarge(Long.BYTES + o.position(), maxFrame);
    }
    out.writeInt(Long.BYTES + o.position());
    out.writeLong(callId);
    out.writeBytes(o.getBuffer(), 0, o.position());
  }

  /** The call id of a frame whose length prefix was already stripped. */
  public static long callId(ByteBuf frame) {
    return frame.getLong(frame.readerIndex());
  }

  /** The order in a frame whose length prefix was already stripped. */
  public static Order order(ByteBuf frame) {
    byte[] bytes = new byte[frame.readableBytes() - Long.BYTES];
    frame.getBytes(frame.readerIndex() + Long.BYTES, bytes);
    return KRYO.get().readObject(new Input(bytes), Order.class);
  }
}
