package protocols.dubbo;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import org.apache.dubbo.remoting.Channel;
import org.apache.dubbo.remoting.exchange.Request;
import org.apache.dubbo.remoting.exchange.Response;
import org.apache.dubbo.remoting.exchange.support.DefaultFuture;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.Test;

/**
 * A call sent as its provider dies: RegistryServerIT once got Dubbo's own NullPointerException in place of a
 * network error, so its KO named neither the lost connection nor where the provider came from.
 */
class LostWhileSendingTest {

  @Test
  void dubbosCancelOfACallTheClosingChannelAlreadyAnsweredIsALostConnection() {
    // Dubbo's own sequence: the call's future, the channel's close answering it, then HeaderExchangeChannel.request
    // cancelling it because its send failed.
    Request request = new Request();
    DefaultFuture future = DefaultFuture.newFuture(closedChannel(), request, 1_000, null);
    Response inactive = new Response(request.getId());
    inactive.setStatus(Response.CHANNEL_INACTIVE);
    inactive.setErrorMessage("Channel is inactive");
    DefaultFuture.received(null, inactive); // as DefaultFuture.closeChannel does
    NullPointerException thrown = assertThrows(NullPointerException.class, future::cancel);

    RpcException seen = assertInstanceOf(RpcException.class, DubboErrors.lostWhileSending(thrown));
    assertTrue(seen.isNetwork(), seen.toString());
    assertTrue(seen.getMessage().startsWith("Failed to send the call: the connection closed while it was sent"),
        seen.getMessage());
    assertSame(thrown, seen.getCause());

    NullPointerException other = new NullPointerException("a check's own");
    assertSame(other, DubboErrors.lostWhileSending(other), "any other NullPointerException stays itself");
  }

  /** Only the key Dubbo files the call's future under: it has no address and sends nothing. */
  private static Channel closedChannel() {
    return (Channel) Proxy.newProxyInstance(Channel.class.getClassLoader(), new Class<?>[] {Channel.class},
        (self, method, args) -> switch (method.getName()) {
          case "equals" -> self == args[0];
          case "hashCode" -> System.identityHashCode(self);
          case "toString" -> "a closed channel";
          case "isClosed" -> true;
          default -> null;
        });
  }
}
