package protocols.dubbo;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The consumer's pool, where Dubbo's Netty thread hands replies (the dubbo protocol: each reply; Triple: each
 * frame of one): Dubbo's own threadpool, threads and queues on the consumer's side of the URL, which Dubbo
 * reads when it makes the consumer's shared executor.
 */
final class DubboConsumerPool {
  private DubboConsumerPool() {
  }

  /** A pool size: 0 (Dubbo's cached pool) to 1,024 threads. */
  static int checked(int threads) {
    if (threads < 0 || threads > 1_024) {
      throw new IllegalArgumentException("consumer threads must be between 0 (Dubbo's cached pool) and 1024, got "
          + threads);
    }
    return threads;
  }

  /** The URL parameters: none keeps Dubbo's cached pool; else a fixed pool of {@code threads} and an unbounded queue. */
  static Map<String, String> parameters(int threads) {
    return threads == 0 ? Map.of() : Map.of("threadpool", "fixed", "threads", Integer.toString(threads),
        "queues", Integer.toString(Integer.MAX_VALUE));
  }

  /** As the protocol table says it. */
  static String describe(int threads) {
    return threads == 0 ? "Dubbo's default: a cached pool, a thread per reply in hand"
        : "a fixed pool of " + threads(threads) + ", unbounded queue";
  }

  /** The executor Dubbo made, as it is: "fixed, 2 threads" or "cached, up to N threads". */
  static String of(ExecutorService executor) {
    if (!(executor instanceof ThreadPoolExecutor pool)) {
      return String.valueOf(executor);
    }
    boolean cached = pool.getQueue() instanceof SynchronousQueue;
    return (cached ? "cached, up to " : "fixed, ") + threads(pool.getMaximumPoolSize());
  }

  private static String threads(int n) {
    return n + (n == 1 ? " thread" : " threads");
  }
}
