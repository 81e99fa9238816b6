package contract.dubbo;

import contract.pojo.Order;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code service MobileService { Order hello(Order); list<Order> listOrders(int) }} for Dubbo, each method
 * with a blocking and an async signature.
 */
public interface MobileService {

  /** Returns {@code order} unchanged. */
  Order hello(Order order);

  /** The same echo through Dubbo's CompletableFuture signature, so the consumer never blocks. */
  CompletableFuture<Order> helloAsync(Order order);

  /** {@code count} sample orders, ids 0 to count-1 ({@link contract.SampleOrder#list}). */
  List<Order> listOrders(int count);

  CompletableFuture<List<Order>> listOrdersAsync(int count);
}
