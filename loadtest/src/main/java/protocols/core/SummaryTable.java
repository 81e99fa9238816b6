package protocols.core;

import java.util.List;

/** The µs figures as a console table, printed next to Gatling's own millisecond statistics. */
public final class SummaryTable {
  private SummaryTable() {}

  public static String render(List<LatencyRecorder.RequestStats> rows) {
    int width = "request".length();
    for (LatencyRecorder.RequestStats r : rows) {
      width = Math.max(width, r.name().length());
    }
    StringBuilder sb = new StringBuilder();
    String header = "%-" + width + "s %10s %6s %10s %8s %8s %8s %8s %8s %9s%n";
    String line = "%-" + width + "s %10d %6d %10.1f %8.1f %8d %8d %8d %8d %9d%n";
    sb.append(String.format(header, "request", "count", "ko", "calls/s", "mean", "p50", "p90", "p99", "p99.9", "max"));
    for (LatencyRecorder.RequestStats r : rows) {
      sb.append(String.format(line, r.name(), r.count(), r.ko(), r.throughput(), r.mean(), r.p50(), r.p90(), r.p99(),
          r.p999(), r.max()));
    }
    return sb.toString().stripTrailing();
  }
}
