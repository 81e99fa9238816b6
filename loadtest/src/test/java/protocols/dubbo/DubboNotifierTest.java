package protocols.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.dubbo.MobileService;
import contract.pojo.Order;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** Dubbo's event notification as callback mode uses it: replies found by the call's first argument. */
class DubboNotifierTest {

  /** Stands in for Dubbo's proxy of a notifying reference: an async call returns null at once. */
  private static final class Sent implements MobileService {
    final List<Order> orders = new ArrayList<>();

    @Override
    public Order hello(Order order) {
      orders.add(order);
      return null;
    }

    @Override
    public CompletableFuture<Order> helloAsync(Order order) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Order> listOrders(int count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<List<Order>> listOrdersAsync(int count) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void eachReplyReachesItsOwnCallAndOneRequestCannotBeInFlightTwice() throws Exception {
    DubboNotifier notifier = new DubboNotifier();
    Sent sent = new Sent();
    MobileService caller = notifier.caller(MobileService.class, sent);
    Order a = new Order();
    Order b = new Order();
    List<String> heard = new ArrayList<>();
    BiConsumer<Object, Throwable> toA = (reply, error) -> heard.add("a " + (reply == a) + " " + error);
    BiConsumer<Object, Throwable> toB = (reply, error) -> heard.add("b " + reply + " " + error.getMessage());
    notifier.making(toA, () -> assertNull(caller.hello(a)));
    notifier.making(toB, () -> caller.hello(b));
    assertEquals(List.of(a, b), sent.orders, "both sent, through Dubbo's proxy");
    IllegalStateException twice = assertThrows(IllegalStateException.class,
        () -> notifier.making((r, e) -> { }, () -> caller.hello(a)));
    assertTrue(twice.getMessage().contains("already in flight"), twice.getMessage());
    assertEquals(2, sent.orders.size(), "the second call of the same request was not sent");

    notifier.onThrow(new IllegalStateException("refused"), new Object[] {b});
    notifier.onReturn(a, new Object[] {a});
    notifier.onReturn(a, new Object[] {a}); // a second notification of one call changes nothing
    assertEquals(List.of("b null refused", "a true null"), heard);
    notifier.making((reply, error) -> heard.add("a again"), () -> caller.hello(a));
    assertSame(a, sent.orders.get(2), "once answered, the request may be sent again");
  }
}
