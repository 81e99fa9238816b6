package protocols.ice;

import com.zeroc.Ice.InputStream;
import com.zeroc.Ice.OperationMode;
import com.zeroc.Ice.OutputStream;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import protocols.rpc.RpcRequest;

/**
 * Ice's dynamic invocation ({@code ice_invokeAsync}), for a user without generated code: the payload
 * is the operation's in-parameters as an encapsulation ({@link #encode}), the reply its out-parameters
 * and return value ({@link #decode}). A user exception raised by the operation is a KO, code
 * {@code ice user exception}.
 */
public final class IceDynamic {
  private IceDynamic() {}

  /** {@code ice("name").dynamic("orders", "listOrders")}. */
  static RpcRequest<IceClient, byte[], byte[]> request(String name, String identity, String operation,
                                                       OperationMode mode) {
    return new IceMethod.Proxy<>(name, identity, prx -> prx).<byte[], byte[]>call((prx, in) ->
        prx.ice_invokeAsync(operation, mode, in).thenApply(result -> {
          if (!result.returnValue) {
            throw new CompletionException(new UserExceptionReply(operation));
          }
          return result.outParams;
        }));
  }

  /** In-parameters for a dynamic call: {@code encode(out -> out.writeInt(5))}. */
  public static byte[] encode(Consumer<OutputStream> writer) {
    OutputStream out = new OutputStream();
    out.startEncapsulation();
    writer.accept(out);
    out.endEncapsulation();
    return out.finished();
  }

  /**
   * Reads a dynamic call's reply from its start: {@code decode(reply, in -> in.readSize())}. The reader
   * may stop before the end (Ice's endEncapsulation would take what is left for optional members).
   */
  public static <T> T decode(byte[] outParams, Function<InputStream, T> reader) {
    InputStream in = new InputStream(outParams);
    in.startEncapsulation();
    return reader.apply(in);
  }

  /** The operation raised a user exception (its encoding is in the reply, unread). */
  static final class UserExceptionReply extends RuntimeException {
    UserExceptionReply(String operation) {
      super(operation + " raised a user exception", null, false, false);
    }
  }
}
