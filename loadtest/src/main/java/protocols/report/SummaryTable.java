package protocols.report;

import java.io.PrintStream;
import java.util.List;
import protocols.load.RunAnalysis;
import protocols.stats.Warning;
import protocols.stats.LatencyRecorder;
import protocols.stats.RequestStats;
import protocols.stats.StreamStats;
import protocols.stats.StreamTrials;
import protocols.stats.TrialStats;
import protocols.stats.OpenStats;

/** The µs figures as a console table, printed next to Gatling's own millisecond statistics. */
public final class SummaryTable {
  private SummaryTable() {}

  public static String render(List<RequestStats> rows) {
    int width = "request".length();
    for (RequestStats r : rows) {
      width = Math.max(width, r.name().length());
    }
    StringBuilder sb = new StringBuilder();
    String header = "%-" + width + "s %10s %6s %10s %8s %8s %8s %8s %8s %9s%n";
    String line = "%-" + width + "s %10d %6d %10.1f %8s %8s %8s %8s %8s %9s%n";
    sb.append(String.format(header, "request", "count", "ko", "calls/s", "mean", "p50", "p90", "p99", "p99.9", "max"));
    for (RequestStats r : rows) {
      boolean ok = r.hasOkCalls(); // without an OK call, "-": a 0 would read as fast
      sb.append(String.format(line, r.name(), r.count(), r.ko(), r.throughput(),
          ok ? String.format(java.util.Locale.ROOT, "%.1f", r.mean()) : "-", ok ? r.p50() : "-", ok ? r.p90() : "-",
          ok ? r.p99() : "-", ok ? r.p999() : "-", ok ? r.max() : "-"));
    }
    List<RequestStats> open = rows.stream().filter(RequestStats::isOpen).toList();
    if (!open.isEmpty()) {
      String oh = "%-" + width + "s %10s %10s %8s %8s %8s %8s %8s %9s %9s %9s%n";
      String ol = "%-" + width + "s %10.0f %10.1f %8d %8d %8d %8s %8s %9d %9d %9d%n";
      sb.append(String.format("%nOpen-model levels: calls/s offered and achieved (OK), µs from the due time (response)"
          + " and from the send (service)%n"));
      sb.append(String.format(oh, "request", "offered", "achieved", "dropped", "lag p50", "lag p99", "svc p50", "svc p99",
          "resp p50", "resp p99", "resp max"));
      for (RequestStats r : open) {
        OpenStats o = r.open();
        sb.append(String.format(java.util.Locale.ROOT, ol, r.name(), o.offered(), r.okThroughput(), o.dropped(),
            o.lagP50(), o.lagP99(), r.hasOkCalls() ? r.p50() : "-", r.hasOkCalls() ? r.p99() : "-", o.responseP50(),
            o.responseP99(), o.responseMax()));
      }
    }
    return sb.toString().stripTrailing();
  }

  /** One line per saturated open-model level: {@code SATURATED [limit] level: why}. */
  /**
   * Per profiled level and side, the share of each component of its samples (and the harness's, on
   * the injector side), or nothing without profiles.
   */
  public static String profiles(List<protocols.stats.profile.LevelProfile> profiles) {
    if (profiles.isEmpty()) {
      return "";
    }
    int width = "level".length();
    for (protocols.stats.profile.LevelProfile p : profiles) {
      width = Math.max(width, p.request().length());
    }
    StringBuilder sb = new StringBuilder(String.format("%nWhere the time went (%% of each side's samples in the level;"
        + " flame graphs in profiles/; profiled levels are not for quoting: docs/profiles.md)%n"));
    sb.append(String.format("%-" + width + "s %-8s %8s", "level", "side", "samples"));
    for (protocols.stats.profile.Component c : protocols.stats.profile.Component.values()) {
      sb.append(String.format(" %" + Math.max(6, c.label().length()) + "s", c.label()));
    }
    sb.append(String.format("%n"));
    for (protocols.stats.profile.LevelProfile p : profiles) {
      sb.append(String.format(java.util.Locale.ROOT, "%-" + width + "s %-8s %8d", p.request(), p.side().label(),
          p.samples()));
      for (protocols.stats.profile.Component c : protocols.stats.profile.Component.values()) {
        Double share = p.shares().get(c.label());
        sb.append(String.format(java.util.Locale.ROOT, " %" + Math.max(6, c.label().length()) + "s", share == null
            ? "-" : String.format(java.util.Locale.ROOT, "%.1f", 100 * share)));
      }
      sb.append(String.format("%n"));
    }
    return sb.toString();
  }

  /** The streams' per-message figures (µs), or nothing for a run without streams. */
  public static String streams(List<StreamStats> streams) {
    if (streams.isEmpty()) {
      return "";
    }
    int width = "stream".length();
    for (StreamStats s : streams) {
      width = Math.max(width, s.name().length());
    }
    String h = "%-" + width + "s %8s %10s %10s %10s %10s %9s %9s %9s %9s %9s %9s%n";
    String l = "%-" + width + "s %8d %10d %10d %10.1f %10.1f %9d %9d %9d %9d %9d %9s%n";
    StringBuilder sb = new StringBuilder(String.format("%nStreams (failed ones up to their failure): messages each way, µs to the first message,"
        + " between messages and, for echoes, each message's round trip (paced: from when it was due, and how late"
        + " it went out)%n"));
    sb.append(String.format(h, "stream", "streams", "sent", "received", "sent/s", "recv/s", "first p50", "gap p99",
        "rtt p50", "rtt p99", "rtt max", "lag p99"));
    for (StreamStats s : streams) {
      sb.append(String.format(java.util.Locale.ROOT, l, s.name(), s.streams(), s.messagesSent(), s.messagesReceived(),
          s.sentPerSecond(), s.receivedPerSecond(), s.firstMessageP50(), s.gapP99(), s.roundTripP50(),
          s.roundTripP99(), s.roundTripMax(), s.pacedSends() == 0 ? "-" : Long.toString(s.sendLagP99())));
    }
    return sb.toString();
  }

  /** The streaming shootout's levels over their trials: medians with intervals, pairs with verdicts, resolutions. */
  public static String streamTrials(StreamTrials trials) {
    if (trials.isEmpty()) {
      return "";
    }
    int width = "level".length();
    for (StreamTrials.Row r : trials.levels()) {
      width = Math.max(width, r.name().length());
    }
    StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT, "%nStreams over trials: medians of %d"
        + " trials [95%%: %s]%n", trials.levels().get(0).trials(), trials.levels().get(0).receivedPerSecond().method()));
    String h = "%-" + width + "s %26s %22s %22s  %s%n";
    sb.append(String.format(h, "level", "received/s", "rtt p50", "rtt p99", ""));
    for (StreamTrials.Row r : trials.levels()) {
      sb.append(String.format(java.util.Locale.ROOT, h, r.name(), r.receivedPerSecond().withBounds(0),
          r.roundTripP50().withBounds(0), r.roundTripP99().withBounds(0), r.warnedTrials().isEmpty() ? ""
              : "warned: " + r.warnedTrials().size() + " of " + r.trials() + " trials"));
    }
    if (!trials.pairs().isEmpty()) {
      sb.append(String.format(java.util.Locale.ROOT, "Stream pairs: candidate / baseline [95%%], verdicts beyond %.0f%%"
          + " (p99: %.0f%%)%n", 100 * TrialStats.NOISE_FLOOR, 100 * TrialStats.P99_NOISE_FLOOR));
      for (StreamTrials.Pair p : trials.pairs()) {
        sb.append(String.format(java.util.Locale.ROOT, "  %s / %s, %s: received/s %s %s; rtt p50 %s %s; rtt p99 %s %s%n",
            p.candidate(), p.baseline(), p.level(), p.receivedRatio().withBounds(3), p.receivedVerdict(),
            p.roundTripP50Ratio().withBounds(3), p.roundTripP50Verdict(), p.roundTripP99Ratio().withBounds(3),
            p.roundTripP99Verdict()));
      }
    }
    for (StreamTrials.Resolution r : trials.resolutions()) {
      sb.append(String.format(java.util.Locale.ROOT, "Resolution at %s: ±%.1f%% (an A/A pair's interval half-width over"
          + " %d paired rounds)%n", r.level(), 100 * r.paired(), r.rounds()));
    }
    return sb.toString();
  }



  public static String saturated(RunAnalysis analysis) {
    StringBuilder sb = new StringBuilder();
    for (RunAnalysis.Assessment l : analysis.levels()) {
      if (l.saturation() != null && l.saturation().saturated()) {
        sb.append("SATURATED [").append(l.saturation().limit()).append("] ").append(l.request()).append(": ")
            .append(l.saturation().reason()).append('\n');
      }
    }
    return sb.toString();
  }

  /** The validity lines of a run's console: what was not checked, then each warning (or none). */
  public static void printValidity(RunAnalysis analysis, PrintStream console) {
    List<Warning> warnings = analysis.warnings();
    analysis.cpuNotSampled().ifPresent(why -> console.println("Validity: other work on the machine not checked"
        + " (CPU shares not measured: " + why + ")."));
    for (RunAnalysis.Assessment a : analysis.notJudged()) {
      console.println("Validity: not judged: " + a.request() + ": " + a.notJudged() + ".");
    }
    if (warnings.isEmpty()) {
      console.println("Validity: no warnings.");
      return;
    }
    console.println("Validity: " + warnings.size() + " warning(s): the figures of these levels should not be trusted"
        + " as they are.");
    for (Warning w : warnings) {
      console.println("WARNING [" + w.kind() + "] " + w.request() + ": " + w.message());
    }
  }
}
