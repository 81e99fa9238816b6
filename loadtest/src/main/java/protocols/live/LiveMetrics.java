package protocols.live;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import protocols.stats.CpuSampler;
import protocols.stats.Level;
import protocols.stats.Numbers;

/**
 * A run's figures while it runs: a Prometheus endpoint ({@code -Dmetrics.port}) and a line on the
 * console every few seconds ({@code -Dlive}). Per request name, with the request, its framework, mode
 * and level as labels: calls by outcome, calls in flight, latency (a classic histogram, seconds, and
 * p50/p99/p99.9 of the last 10 s from HdrHistograms), an open level's offered rate, dropped calls and
 * send lag, whether the level is running, and the CPU shares the run report shows. Told every call
 * by the run's observer, on the users' event loops: a call only adds to its request's {@link Window};
 * Prometheus' figures are made from the windows when it scrapes (the histograms as of the last whole
 * second).
 */
public final class LiveMetrics implements AutoCloseable {
  /** The latency buckets, seconds: 50 µs to 10 s, about two per factor of 2.5, for calls of 50 µs and up. */
  static final double[] BUCKETS = {50e-6, 100e-6, 200e-6, 500e-6, 1e-3, 2e-3, 5e-3, 10e-3, 20e-3, 50e-3, 100e-3,
      200e-3, 500e-3, 1, 2, 5, 10};
  /** The same with the last, open bucket, as a classic histogram's snapshot takes them. */
  private static final double[] BOUNDS = java.util.stream.DoubleStream.concat(java.util.Arrays.stream(BUCKETS),
      java.util.stream.DoubleStream.of(Double.POSITIVE_INFINITY)).toArray();
  static final String[] LABELS = {"request", "framework", "mode", "level"};
  /** The recent percentiles served: Prometheus' quantile label, HdrHistogram's percentile. */
  private static final Map<String, Double> QUANTILES = Map.of("0.5", 50.0, "0.99", 99.0, "0.999", 99.9);

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Function<String, Level> levels;
  private final Supplier<String> soleFramework;
  private final Map<String, Window> windows = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticker;
  private final ExecutorService httpThreads;
  private final HTTPServer server;
  private final int consoleSeconds;
  private final PrintStream console;
  private final long startNanos = System.nanoTime();

  /**
   * Serves on {@code host:port} (port 0 serves nothing) and prints every {@code consoleSeconds} (0 prints
   * nothing). {@code levels} says what a request name is, {@code soleFramework} the framework of a run of
   * one (for names without one), {@code cpu} the CPU shares over the last 10 s.
   *
   * @throws IllegalArgumentException in one line if the port cannot be served
   */
  public LiveMetrics(String host, int port, int consoleSeconds, PrintStream console, Function<String, Level> levels,
                     Supplier<String> soleFramework, Supplier<Optional<CpuSampler.Shares>> cpu) {
    this.levels = levels;
    this.soleFramework = soleFramework;
    this.consoleSeconds = consoleSeconds;
    this.console = console;
    CounterWithCallback.builder().name("rpc_calls_total").help("Calls completed, by outcome (ok or ko)")
        .labelNames("request", "framework", "mode", "level", "outcome")
        .callback(cb -> windows.values().forEach(w -> {
          cb.call(w.okCalls.sum(), with(w.labels, "ok"));
          cb.call(w.koCalls.sum(), with(w.labels, "ko"));
        })).register(registry);
    GaugeWithCallback.builder().name("rpc_calls_in_flight").help("Calls sent and not yet completed")
        .labelNames(LABELS).callback(cb -> windows.values().forEach(w -> cb.call(w.inFlight.sum(), w.labels)))
        .register(registry);
    registry.register(histogram("rpc_latency_seconds",
        "Latency of OK calls, from the intended send time in open-model levels", Window::latencyTotal));
    registry.register(histogram("rpc_send_lag_seconds",
        "Open-model levels: how late each call was sent after it was due", Window::sendLagTotal));
    GaugeWithCallback.builder().name("rpc_latency_recent_seconds")
        .help("Latency percentiles of the OK calls of the last " + Window.SECONDS + " s (HdrHistogram)")
        .labelNames("request", "framework", "mode", "level", "quantile")
        .callback(cb -> windows.values().forEach(w -> {
          org.HdrHistogram.Histogram recent = w.recent();
          if (recent.getTotalCount() > 0) {
            QUANTILES.forEach((label, percentile) ->
                cb.call(recent.getValueAtPercentile(percentile) / 1e6, with(w.labels, label)));
          }
        })).register(registry);
    GaugeWithCallback.builder().name("rpc_offered_rate").help("Open-model levels: calls per second offered")
        .labelNames(LABELS).callback(cb -> windows.values().forEach(w -> {
          if (!Double.isNaN(w.offeredRate)) {
            cb.call(w.offeredRate, w.labels);
          }
        })).register(registry);
    CounterWithCallback.builder().name("rpc_dropped_calls_total")
        .help("Open-model levels: calls due but not sent (the cap on calls in flight was reached)")
        .labelNames(LABELS).callback(cb -> windows.values().forEach(w -> cb.call(w.dropped.sum(), w.labels)))
        .register(registry);
    GaugeWithCallback.builder().name("rpc_level_running").help("1 while the level has calls in flight or just made")
        .labelNames(LABELS).callback(cb -> windows.values().forEach(w -> cb.call(w.running ? 1 : 0, w.labels)))
        .register(registry);
    GaugeWithCallback.builder().name("rpc_cpu_share")
        .help("Share of the machine's CPU over the last " + Window.SECONDS + " s: this injector, its servers, the rest")
        .labelNames("process")
        .callback(cb -> cpu.get().ifPresent(s -> {
          cb.call(s.injector(), "injector");
          cb.call(s.servers(), "servers");
          cb.call(s.rest(), "rest");
          cb.call(s.steal(), "steal");
        })).register(registry);
    ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "rpc-live-metrics"));
    ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    if (port > 0) {
      httpThreads = Executors.newFixedThreadPool(2, r -> daemon(r, "rpc-metrics-http"));
      try {
        server = HTTPServer.builder().hostname(host).port(port).registry(registry).executorService(httpThreads)
            .buildAndStart();
      } catch (IOException | UncheckedIOException e) {
        ticker.shutdownNow();
        httpThreads.shutdownNow();
        throw new IllegalArgumentException("-Dmetrics.port: cannot serve metrics on " + host + ":" + port + ": "
            + e.getMessage());
      }
    } else {
      httpThreads = null;
      server = null;
    }
  }

  /** A classic histogram in seconds of each window's µs HdrHistogram, made when scraped. */
  private Collector histogram(String name, String help, Function<Window, org.HdrHistogram.Histogram> of) {
    return () -> {
      HistogramSnapshot.Builder snapshot = HistogramSnapshot.builder().name(name).help(help);
      for (Window w : windows.values()) {
        org.HdrHistogram.Histogram h = of.apply(w);
        long[] counts = new long[BOUNDS.length];
        long below = 0;
        for (int i = 0; i < BUCKETS.length; i++) {
          long upTo = h.getTotalCount() == 0 ? 0 : h.getCountBetweenValues(0, (long) (BUCKETS[i] * 1e6));
          counts[i] = upTo - below;
          below = upTo;
        }
        counts[BUCKETS.length] = h.getTotalCount() - below;
        snapshot.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
            .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, counts))
            .sum(h.getMean() * h.getTotalCount() / 1e6)
            .labels(Labels.of(LABELS, w.labels)).build());
      }
      return snapshot.build();
    };
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private static String[] with(String[] labels, String last) {
    String[] out = java.util.Arrays.copyOf(labels, labels.length + 1);
    out[labels.length] = last;
    return out;
  }

  /** The port it serves on, or -1 when it serves none. */
  public int port() {
    return server == null ? -1 : server.getPort();
  }

  PrometheusRegistry registry() {
    return registry;
  }

  private Window window(String name) {
    Window w = windows.get(name);
    return w != null ? w : windows.computeIfAbsent(name, n -> new Window(labels(n)));
  }

  /** The request's labels: its name, and its framework, mode and level as its namer described it. */
  private String[] labels(String name) {
    Level level = levels.apply(name);
    if (level == null) {
      return new String[] {name, soleFramework.get(), "", name};
    }
    return new String[] {name, level.framework() != null ? level.framework() : soleFramework.get(),
        level.mode() == null ? "" : level.mode().label(),
        level.label() + (level.duringFault() ? Level.DURING_FAULT : "")};
  }

  public void started(String name) {
    Window w = window(name);
    w.inFlight.increment();
    if (!w.running) {
      w.running = true;
    }
  }

  public void completed(String name, long intendedNanos, long startNanos, long endNanos, String failure, boolean open) {
    Window w = window(name);
    w.inFlight.decrement();
    w.lastCall = endNanos;
    if (failure != null) {
      w.koCalls.increment();
      return;
    }
    w.latencies.recordValue(Math.max(0, (endNanos - intendedNanos) / 1_000));
    w.okCalls.increment();
    if (open) {
      w.sendLags.recordValue(Math.max(0, (startNanos - intendedNanos) / 1_000));
    }
  }

  public void openLevel(String name, double rate) {
    window(name).offeredRate = rate;
  }

  public void dropped(String name) {
    window(name).dropped.increment();
  }

  /** Each second: rolls the windows, marks levels no longer running, and prints the console line when due. */
  void tick() {
    try {
      long now = System.nanoTime();
      List<String> lines = new ArrayList<>();
      int second = (int) Math.round((now - startNanos) / 1e9);
      boolean print = consoleSeconds > 0 && second % consoleSeconds == 0;
      for (Map.Entry<String, Window> e : windows.entrySet()) {
        Window w = e.getValue();
        w.roll();
        if (w.running && w.inFlight.sum() == 0 && now - w.lastCall > 1_000_000_000L) {
          w.running = false;
        }
        if (print) {
          Window.Interval last = w.last(consoleSeconds);
          if (last.ok().getTotalCount() + last.ko() > 0 || w.inFlight.sum() > 0) {
            lines.add(String.format(java.util.Locale.ROOT, "live %d s | %s: %s calls/s, p50 %s µs, p99 %s µs, KO %s,"
                + " in flight %d", second, e.getKey(), Numbers.fmt((last.ok().getTotalCount() + last.ko()) / (double) last.seconds(), 0),
                Numbers.fmt(last.ok().getValueAtPercentile(50), 0), Numbers.fmt(last.ok().getValueAtPercentile(99), 0),
                Numbers.fmt(last.ko(), 0), w.inFlight.sum()));
          }
        }
      }
      lines.forEach(console::println);
    } catch (RuntimeException e) {
      // a figure that could not be made this second is made the next
    }
  }

  /** Stops serving and printing. */
  @Override
  public void close() {
    ticker.shutdownNow();
    if (server != null) {
      server.close();
      httpThreads.shutdownNow();
    }
  }
}
