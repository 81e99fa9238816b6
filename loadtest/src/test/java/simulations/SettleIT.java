package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * A level's start: measured at full speed after the warm-up's rehearsal of one, and, when it starts
 * slow all the same, measured only once it has settled (issue 48).
 */
class SettleIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "settle");
  private static final Duration LIMIT = Duration.ofMinutes(3);
  /**
   * The collapse at a level's start, both at once in its first second: calls/s under 75% of the
   * level's median second and a p99 over 3 times its median second's. Before the fix here: 0.64 and
   * 10x (gRPC, 1 client); in the issue, 0.18 and 28x. Noise on a busy machine moves one or the other.
   */
  private static final double COLLAPSED_SHARE = 0.75;
  private static final double COLLAPSED_P99_FACTOR = 3;

  @Test
  void aLevelAfterAWarmUpAtItsOwnConcurrencyStartsAtFullSpeedWithoutASettle() throws Exception {
    GatlingProcess.Result run = GatlingProcess.runWithFullJit("GrpcEcho", Map.of("levels", "1", "duration", "5", "warmup", "auto",
        "warmupMax", "20", "settle", "0"), RESULTS.resolve("no-settle"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode rehearsal = settleOf(summary, "rehearsal (async)").orElseThrow(() -> new AssertionError(
        "the warm-up rehearses a level's start: " + summary.get("run")));
    assertTrue(rehearsal.get("seconds").asDouble() > 0, rehearsal.toString());
    assertTrue(settleOf(summary, "echo 1 clients (async)").isEmpty(), "-Dsettle=0: no settle");
    JsonNode level = summary.get("requests").get("echo 1 clients (async)");
    long[] windows = fullWindows(level);
    long[] p99s = new long[windows.length];
    for (int i = 0; i < p99s.length; i++) {
      p99s[i] = level.get("p99PerSecond").get(i).asLong();
    }
    assertTrue(windows.length >= 4, Arrays.toString(windows));
    boolean collapsed = windows[0] < COLLAPSED_SHARE * median(windows) && p99s[0] > COLLAPSED_P99_FACTOR * median(p99s);
    // On a machine the run itself found saturated (CI's two forks: a warm-up at 80 to 2,000 calls/s, never
    // stable), a first second can collapse all the same; then the level must not be given as trustworthy.
    java.util.List<String> warned = StreamSupport.stream(summary.get("warnings").spliterator(), false)
        .filter(w -> w.get("request").asText().equals("echo 1 clients (async)")).map(w -> w.get("kind").asText())
        .toList();
    boolean busy = warned.contains("busy-machine");
    assertFalse(collapsed && !(busy && warned.contains("not-steady")), "the level's first second collapsed"
        + (busy ? " without a not-steady warning" : " on a machine the run did not find busy") + ": calls/s "
        + Arrays.toString(windows) + ", p99 " + Arrays.toString(p99s) + ", warnings " + warned);
  }

  @Test
  void aLevelWhoseFirstSecondsAreSlowIsMeasuredOnlyOnceItHasSettled() throws Exception {
    // No warm-up: a cold JVM's first seconds climb; the level's own users settle it before it is measured.
    GatlingProcess.Result run = GatlingProcess.runWithFullJit("ThriftEcho", Map.of("levels", "5", "duration", "4", "warmup", "0",
        "settle", "auto"), RESULTS.resolve("cold"), LIMIT);
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    String level = "echo 5 clients (async)";
    JsonNode settle = settleOf(summary, level).orElseThrow(() -> new AssertionError(summary.get("run").toString()));
    double seconds = settle.get("seconds").asDouble();
    assertTrue(seconds >= 3 && seconds <= 11.5, "at least three windows, at most the 10-s bound: " + settle);
    JsonNode settling = summary.get("requests").get("settle at 5 clients (async)");
    assertTrue(settling != null && settling.get("count").asLong() > 0, "the settle's calls are a row of their own");
    assertEquals("SETTLE_AT_CLIENTS", settling.get("level").get("kind").asText());
    assertTrue(settling.get("validity").get("warmup").asBoolean(), "the settle is not measured");
    JsonNode warmups = summary.get("run").get("warmups");
    assertTrue(warmups == null || warmups.isEmpty(), "no warm-up: " + summary.get("run"));
    JsonNode levelRow = summary.get("requests").get(level);
    long[] measured = fullWindows(levelRow);
    long[] cold = fullWindows(settling);
    // Measured only after the settle: its first call starts once the settle has ended (its seconds are
    // rounded to a tenth). Three steady seconds are no proof of a plateau (a cold JVM here went on from
    // 3,061 to 7,754 calls/s after one): the level's own windows are not asserted.
    assertTrue(levelRow.get("startEpochMillis").asLong() >= settling.get("startEpochMillis").asLong()
        + Math.round(seconds * 1000) - 100, "the level starts after its settle: " + settle + ", settle row from "
        + settling.get("startEpochMillis") + ", level from " + levelRow.get("startEpochMillis"));
    if (settle.get("stable").asBoolean()) {
      assertTrue(cold[0] < median(measured), "the cold start was slower than the level: settle " + Arrays.toString(cold)
          + ", level " + Arrays.toString(measured));
    } else {
      assertTrue(StreamSupport.stream(summary.get("warnings").spliterator(), false)
          .anyMatch(w -> w.get("kind").asText().equals("not-settled") && w.get("request").asText().equals(level)),
          "a level measured unsettled says so: " + summary.get("warnings"));
    }
    if (Chromium.available()) {
      String dom = Chromium.run("--dump-dom", run.runFolder().resolve("rpc-report.html").toUri().toString());
      int at = dom.indexOf("<tr data-request=\"" + level + "\"");
      String row = dom.substring(at, dom.indexOf("</tr>", at));
      assertTrue(row.contains("<td class=\"settle\">" + settle.get("seconds").asText()), "the settle in its row: " + row);
      assertFalse(dom.contains("lengthen -Dwarmup"), "the advice names what helps");
    }
  }

  private static Optional<JsonNode> settleOf(JsonNode summary, String request) {
    JsonNode settles = summary.get("run").get("settles");
    return settles == null ? Optional.empty() : StreamSupport.stream(settles.spliterator(), false)
        .filter(s -> s.get("request").asText().equals(request)).findFirst();
  }

  /** A request's complete 1-second windows of its sending span, as the analysis takes them. */
  private static long[] fullWindows(JsonNode request) {
    long span = request.get("sendEndEpochMillis").asLong() - request.get("startEpochMillis").asLong();
    JsonNode ok = request.get("okPerSecond");
    int n = (int) Math.min(ok.size(), span / 1000);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = ok.get(i).asLong() + request.get("koPerSecond").get(i).asLong();
    }
    return out;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
