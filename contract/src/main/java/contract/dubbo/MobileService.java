package contract.dubbo;

import contract.pojo.Order;
import java.util.concurrent.CompletableFuture;

/** {@code service MobileService { Order hello(Order) }} for Dubbo: one blocking and one async method. */
public interface MobileService {

  /** Returns {@code order} unchanged. */
  Order hello(Order order);

  /** The same echo through Dubbo's CompletableFuture signature, so the consumer never blocks. */
  CompletableFuture<Order> helloAsync(Order order);
}
