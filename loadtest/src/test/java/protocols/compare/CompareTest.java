package protocols.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.rpc.InvocationMode;
import protocols.stats.LatencyRecorder;
import protocols.stats.Level;
import protocols.stats.RequestStats;
import protocols.stats.Summaries;
import protocols.stats.Verdict;
import protocols.stats.Warning;

/** Two runs' levels matched by value, each figure's ratio and verdict, and the command's bad input. */
class CompareTest {
  private static final Level ONE = Level.closed(null, 1, InvocationMode.ASYNC);
  private static final Level TWENTY = Level.closed(null, 20, InvocationMode.ASYNC);

  /** A level whose seconds complete {@code perSecond} calls, each taking {@code micros}. */
  private static RequestStats level(Level level, long micros, long... perSecond) {
    LatencyRecorder r = new LatencyRecorder();
    r.describe(level.name(), level);
    for (int s = 0; s < perSecond.length; s++) {
      for (long i = 0; i < perSecond[s]; i++) {
        long start = s * 1_000_000_000L + i * (1_000_000_000L / perSecond[s]);
        r.record(level.name(), start, start + micros * 1_000, true);
      }
    }
    return r.snapshot().get(0);
  }

  private static Summaries.Summary run(List<Warning> warnings, RequestStats... levels) {
    return new Summaries.Summary(null, warnings, List.of(levels), Map.of());
  }

  private static Compare.Row row(Compare.Result result, String level, Compare.Figure figure) {
    return result.rows().stream().filter(r -> r.level().equals(level) && r.figure() == figure).findFirst()
        .orElseThrow(() -> new AssertionError(level + " " + figure + " not in " + result.rows()));
  }

  @Test
  void aLevelTwiceAsSlowIsSlowerAndTheSameLevelAgainShowsNoDifference() {
    Summaries.Summary baseline = run(List.of(), level(ONE, 250, 4000, 4100, 3900, 4050, 3950),
        level(TWENTY, 800, 20000, 20500, 19800, 20100, 20300));
    Summaries.Summary candidate = run(List.of(), level(ONE, 500, 2000, 2050, 1950, 2010, 1990),
        level(TWENTY, 810, 20200, 19900, 20400, 20000, 20100));
    Compare.Result r = Compare.of(baseline, candidate, 0.25);
    Compare.Row calls = row(r, ONE.name(), Compare.Figure.CALLS_PER_SECOND);
    assertEquals(Verdict.SLOWER, calls.verdict());
    assertTrue(calls.ratio().hi() < 0.6 && calls.ratio().lo() > 0.4, calls.ratio().toString());
    assertEquals(Verdict.SLOWER, row(r, ONE.name(), Compare.Figure.P50).verdict(), "twice the latency");
    assertEquals(Verdict.NO_DIFFERENCE, row(r, TWENTY.name(), Compare.Figure.CALLS_PER_SECOND).verdict());
    assertEquals(List.of(), r.unmatched());
  }

  @Test
  void aLevelOnABusyMachineIsNotJudgedAndLevelsOfOneRunOnlyAreListed() {
    Summaries.Summary baseline = run(List.of(new Warning(ONE.name(), Warning.Kind.BUSY_MACHINE, "steal 31%")),
        level(ONE, 250, 1200, 1100, 1300, 1250, 1150));
    Summaries.Summary candidate = run(List.of(new Warning(ONE.name(), Warning.Kind.NOT_STEADY, "fell 20%")),
        level(ONE, 250, 4000, 4100, 3900, 4050, 3950), level(TWENTY, 800, 20000, 20500, 19800, 20100, 20300));
    Compare.Result r = Compare.of(baseline, candidate, 0.25);
    Compare.Row calls = row(r, ONE.name(), Compare.Figure.CALLS_PER_SECOND);
    assertEquals(Verdict.NOT_JUDGED, calls.verdict(), "3.3 times as fast, on a machine the baseline shared");
    assertEquals("baseline busy-machine; candidate not-steady", calls.warned());
    assertEquals(List.of(TWENTY.name() + " (candidate only)"), r.unmatched());
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    CompareCommand.print(r, new PrintStream(text, true, StandardCharsets.UTF_8));
    String console = text.toString(StandardCharsets.UTF_8);
    assertTrue(console.contains("not judged (warned: baseline busy-machine; candidate not-steady)"), console);
    assertTrue(console.contains("not compared: echo 20 clients (async) (candidate only)"), console);
  }

  @Test
  void badInputIsOneLine(@TempDir Path dir) throws Exception {
    assertEquals("-Dbaseline is required: a run's folder (its rpc-summary.json), e.g."
        + " -Dbaseline=loadtest/target/gatling/grpcecho-20261203214537762",
        assertThrows(IllegalArgumentException.class, () -> CompareCommand.summaryOf("baseline", " ")).getMessage());
    assertEquals("-Dcandidate: no rpc-summary.json at " + dir.resolve("rpc-summary.json"),
        assertThrows(IllegalArgumentException.class, () -> CompareCommand.summaryOf("candidate", dir.toString()))
            .getMessage());
    assertEquals("-DnoiseFloor: a fraction from 0 (e.g. 0.25 for 25%), got '25%'",
        assertThrows(IllegalArgumentException.class, () -> CompareCommand.noiseFloor("25%")).getMessage());
    Path written = CompareCommand.write(Compare.of(run(List.of(), level(ONE, 250, 10, 10)),
        run(List.of(), level(ONE, 250, 10, 10)), 0.25), dir.resolve("out/compare.json"));
    assertTrue(Files.readString(written).contains("\"verdict\" : \"no difference shown\""), Files.readString(written));
  }
}
