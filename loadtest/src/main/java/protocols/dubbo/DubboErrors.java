package protocols.dubbo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.dubbo.remoting.exchange.support.DefaultFuture;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.StatusRpcException;
import protocols.rpc.SizeLimit;

/** What a Dubbo or Triple call's error says: its code, a size limit passed, a connection lost while sending. */
final class DubboErrors {
  private static final Pattern TOO_LARGE = Pattern.compile("Data length too large: (\\d+), max payload: (\\d+)");

  private DubboErrors() {}

  /** The size limit {@code error} says was passed, as the lab words it; else null. */
  static String sizeLimit(Throwable error, boolean triple, int maxPayload) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (triple) {
        // Triple's server refuses to send a reply over its limit and says only this; its HTTP/2 side limits
        // no request, nor does its client. The limit named is this client's, which the lab's server shares.
        if (message.contains("Response Entity Too Large")) {
          return SizeLimit.message("triple", "reply", -1, maxPayload, "--max-message");
        }
        continue;
      }
      // Dubbo's codec, on either side: "Data length too large: 10000136, max payload: 8388608, channel: ..."
      Matcher m = TOO_LARGE.matcher(message);
      if (m.find()) {
        return SizeLimit.message("dubbo", "message", Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
            "--payload");
      }
    }
    return null;
  }

  /** Dubbo's code of the error, as a KO's reason names it: its RpcException's code, or Triple's gRPC status. */
  static String errorCode(Throwable thrown) {
    Throwable error = lostWhileSending(thrown);
    if (error instanceof StatusRpcException e) {
      return "triple " + e.getStatus().code; // gRPC's status codes, as grpc-java's client names them
    }
    if (error instanceof RpcException e) {
      return switch (e.getCode()) {
        case RpcException.NETWORK_EXCEPTION -> "dubbo network";
        case RpcException.TIMEOUT_EXCEPTION -> "dubbo timeout";
        case RpcException.BIZ_EXCEPTION -> "dubbo biz";
        case RpcException.FORBIDDEN_EXCEPTION -> "dubbo forbidden";
        case RpcException.SERIALIZATION_EXCEPTION -> "dubbo serialization";
        case RpcException.NO_INVOKER_AVAILABLE_AFTER_FILTER -> "dubbo no invoker";
        case RpcException.LIMIT_EXCEEDED_EXCEPTION -> "dubbo limit exceeded";
        case RpcException.METHOD_NOT_FOUND -> "dubbo method not found";
        default -> "dubbo " + e.getCode();
      };
    }
    return error.getClass().getSimpleName();
  }

  /**
   * Dubbo 3.3's {@code HeaderExchangeChannel.request} cancels its call when sending fails on a closing channel, and
   * when the channel's close had already answered that call, {@code DefaultFuture.cancel} finds no future and throws
   * a NullPointerException in place of the send's error. That is a connection lost while sending: named as one.
   */
  static Throwable lostWhileSending(Throwable error) {
    if (error instanceof NullPointerException) {
      for (StackTraceElement frame : error.getStackTrace()) {
        if (frame.getClassName().equals(DefaultFuture.class.getName()) && frame.getMethodName().equals("cancel")) {
          return new RpcException(RpcException.NETWORK_EXCEPTION, "Failed to send the call: the connection closed"
              + " while it was sent (Dubbo's DefaultFuture.cancel then threw " + protocols.rpc.Errors.oneLine(error)
              + ")", error);
        }
      }
    }
    return error;
  }
}
