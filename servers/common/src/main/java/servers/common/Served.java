package servers.common;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * The calls this server served, as the server itself counts them, for a run of several providers to
 * show how its client spread the load. Printed on stdout as {@code SERVED <n>} lines, at most every
 * {@link #PERIOD_MILLIS} ms while it changes and once when the server stops; the lab reads them. With
 * {@code --metrics-port}, served to Prometheus too, with each echo's service time: from its arrival in
 * the service to its reply handed back to the framework (the --delay-us included).
 */
public final class Served {
  /** The line's prefix: {@code SERVED <calls since the start>}. */
  public static final String PREFIX = "SERVED ";
  /** The flag every server takes: the port of its Prometheus endpoint, 0 (the default) for none. */
  public static final String METRICS_FLAG = "metrics-port";
  static final long PERIOD_MILLIS = 100;
  /** Service-time buckets, seconds: 1 µs to 10 s. */
  private static final double[] BUCKETS = {1e-6, 5e-6, 10e-6, 20e-6, 50e-6, 100e-6, 200e-6, 500e-6, 1e-3, 2e-3, 5e-3,
      10e-3, 20e-3, 50e-3, 100e-3, 200e-3, 500e-3, 1, 2, 5, 10};
  private static final LongAdder CALLS = new LongAdder();
  /** The echo's service times, once the endpoint is up; null without one. */
  private static volatile DistributionDataPoint serviceTimes;

  private Served() {}

  /** One call, counted as it arrives (whatever its outcome); returns when, for {@link #replied}. */
  public static long call() {
    CALLS.increment();
    return System.nanoTime();
  }

  /** The echo that arrived at {@code since} ({@link #call}) has its reply: its service time is recorded. */
  public static void replied(long since) {
    DistributionDataPoint h = serviceTimes;
    if (h != null) {
      h.observe((System.nanoTime() - since) / 1e9);
    }
  }

  /** {@code reply}, its service time recorded when it completes. */
  public static <T> CompletableFuture<T> replied(long since, CompletableFuture<T> reply) {
    reply.whenComplete((r, e) -> replied(since));
    return reply;
  }

  /** Serves {@code echo_server_calls_total} and {@code echo_server_service_seconds} on {@code host:port}. */
  static HTTPServer serve(String framework, String host, int port) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    CounterWithCallback.builder().name("echo_server_calls_total").help("Calls this server served, as it counts them")
        .labelNames("framework").callback(cb -> cb.call(CALLS.sum(), framework)).register(registry);
    Histogram h = Histogram.builder().name("echo_server_service_seconds")
        .help("The echo's service time: from its arrival in the service to its reply").labelNames("framework")
        .classicOnly().classicUpperBounds(BUCKETS).register(registry);
    serviceTimes = h.labelValues(framework);
    return HTTPServer.builder().hostname(host).port(port).registry(registry)
        .executorService(Executors.newFixedThreadPool(1, r -> {
          Thread t = new Thread(r, "metrics-http");
          t.setDaemon(true);
          return t;
        })).buildAndStart();
  }

  /** Prints the count on {@code out} while the server runs; {@link #print} prints the last one. */
  static void report(PrintStream out) {
    Thread t = new Thread(() -> {
      long last = 0;
      try {
        while (true) {
          Thread.sleep(PERIOD_MILLIS);
          long now = CALLS.sum();
          if (now != last) {
            print(out);
            last = now;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "served-count");
    t.setDaemon(true);
    t.start();
  }

  static void print(PrintStream out) {
    synchronized (out) {
      out.println(PREFIX + CALLS.sum());
      out.flush();
    }
  }
}
