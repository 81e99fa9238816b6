package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import protocols.stats.LatencyRecorder;
import protocols.stats.Warning;
import protocols.stats.Warning.Kind;
import protocols.stats.Saturation;
import protocols.stats.RequestStats;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;
import protocols.stats.RunInfo;

class RunAnalysisTest {

  /** A level whose completions per second are {@code perSecond}, each call 100 µs. */
  private static RequestStats level(String name, long... perSecond) {
    return level(name, null, perSecond);
  }

  /** As above, said to be {@code level}. */
  private static RequestStats level(Level level, long... perSecond) {
    return level(level.name(), level, perSecond);
  }

  private static RequestStats level(String name, Level level, long... perSecond) {
    LatencyRecorder r = new LatencyRecorder();
    if (level != null) {
      r.describe(name, level);
    }
    for (int s = 0; s < perSecond.length; s++) {
      for (long i = 0; i < perSecond[s]; i++) {
        long start = s * 1_000_000_000L + i * (1_000_000_000L / perSecond[s]);
        r.record(name, start, start + 100_000, true);
      }
    }
    return r.snapshot().get(0);
  }

  private static List<Kind> kinds(RunAnalysis a) {
    return a.warnings().stream().map(Warning::kind).toList();
  }

  @Test
  void aRequestOfTheUsersOwnIsAdvisedWithoutTheLabsParameters() {
    long[] rising = {110, 132, 123, 144, 139, 137, 133, 145, 145, 144, 151, 158, 163, 160, 165, 100};
    RunAnalysis own = RunAnalysis.of(List.of(level("placeOrder", rising)), Optional.empty(), List.of());
    assertEquals(List.of(Kind.NOT_STEADY), kinds(own));
    assertTrue(only(own, Kind.NOT_STEADY).contains("warm the client and the service up"), only(own, Kind.NOT_STEADY));
    RunAnalysis tooShort = RunAnalysis.of(List.of(level("placeOrder", 100, 100)), Optional.empty(), List.of());
    assertTrue(own.warnings().stream().noneMatch(w -> w.message().contains("-D"))
        && tooShort.warnings().stream().noneMatch(w -> w.message().contains("-D")), tooShort.warnings().toString());
    RunAnalysis lab = RunAnalysis.of(List.of(level(Level.closed(null, 20, InvocationMode.ASYNC), rising)),
        Optional.empty(), List.of());
    assertTrue(only(lab, Kind.NOT_STEADY).contains("-Dsettle"), "a level of the lab's names its parameters");
  }

  @Test
  void aSteadyLevelHasNoWarning() {
    RunAnalysis a = RunAnalysis.of(List.of(level("echo 5 clients (async)", 1000, 1040, 980, 1010, 990, 1000)),
        Optional.empty(), List.of());
    assertEquals(List.of(), a.warnings());
    assertEquals(6, a.levels().get(0).fullWindows(), "every second it sent in");
  }

  @Test
  void aRisingLevelIsNotSteady() {
    // Dubbo at 20 clients after a 9 s warm-up, as measured: 11k rising to 16.5k calls/s.
    RunAnalysis a = RunAnalysis.of(List.of(level("echo 20 clients (async)", 110, 132, 123, 144, 139, 137, 133, 145,
        145, 144, 151, 158, 163, 160, 165, 100)), Optional.empty(), List.of());
    assertEquals(List.of(Kind.NOT_STEADY), kinds(a));
    assertTrue(a.warnings().get(0).message().contains("rose"), a.warnings().get(0).message());
    assertTrue(a.warnings().get(0).message().contains("(over the limit of"), a.warnings().get(0).message());
  }

  @Test
  void aFigureRoundedOntoItsLimitStillSaysWhichSideItIs() {
    assertEquals("15% (within the limit of 15%)", RunAnalysis.againstLimit(0.1496, 0.15));
    assertEquals("15% (over the limit of 15%)", RunAnalysis.againstLimit(0.1530, 0.15));
    assertEquals("40% (over the limit of 25%)", RunAnalysis.againstLimit(-0.40, 0.25), "a fall, its sign said apart");
  }

  @Test
  void aShortLevelSaysItCannotShowASteadyState() {
    RunAnalysis a = RunAnalysis.of(List.of(level("echo 1 clients (async)", 500, 500)), Optional.empty(), List.of());
    assertEquals(List.of(Kind.TOO_SHORT), kinds(a));
  }

  @Test
  void koIsReportedWithItsShareAndMostFrequentReason() {
    LatencyRecorder r = new LatencyRecorder();
    for (int i = 0; i < 400; i++) {
      long start = i * 10_000_000L;
      r.record("echo 1 clients (async)", start, start + 100_000, i % 4 == 0 ? "timeout after 3000 ms" : null);
    }
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of());
    assertEquals(List.of(Kind.KO), kinds(a));
    assertTrue(a.warnings().get(0).message().startsWith("100 of 400 calls failed (25.00%)"), a.warnings().get(0).message());
    assertTrue(a.warnings().get(0).message().contains("\"timeout after 3000 ms\" (100)"));
  }

  @Test
  void warmUpsAreNotJudgedButAnUnfinishedAutoWarmUpIs() {
    RunAnalysis a = RunAnalysis.of(List.of(level(Level.warmup(null, InvocationMode.ASYNC), 10, 500, 900)),
        Optional.empty(), List.of(new RunInfo.WarmupOutcome("warm-up (async)", "auto", 60.0, false, 20, 20L)));
    assertEquals(List.of(Kind.WARM_UP), kinds(a));
  }

  @Test
  void autoWarmUpWaitsForTenSteadySeconds() {
    AtomicLongArray rising = new AtomicLongArray(new long[] {273, 1229, 1509, 2062, 2768, 5181, 5300, 5223, 5252,
        5260, 5280, 5190});
    assertFalse(Warmup.isStable(rising, 12), "a plateau after a jump is not yet stable");
    AtomicLongArray flat = new AtomicLongArray(new long[] {100, 900, 1000, 1010, 990, 1000, 1005, 995, 1000, 1010,
        990, 1000});
    assertFalse(Warmup.isStable(flat, 9), "fewer than ten windows");
    assertTrue(Warmup.isStable(flat, 12));
  }

  @Test
  void aClosedLevelThatStalledSaysItsPercentilesLeaveTheStallOut() {
    RunAnalysis a = RunAnalysis.of(List.of(level("echo 5 clients (async)", 1000, 1000, 3, 1000, 1000, 1000)),
        Optional.empty(), List.of());
    assertEquals(List.of(Kind.STALL), kinds(a));
    assertTrue(a.warnings().get(0).message().contains("coordinated omission"), a.warnings().get(0).message());
  }

  @Test
  void callsThatTakeLongerThanASecondEndInWavesNotStalls() {
    // 10 streams in a closed loop, 1.5 s each: whole seconds pass with no stream ending.
    String name = "chat 10 streams (async)";
    LatencyRecorder r = new LatencyRecorder();
    for (int wave = 0; wave < 8; wave++) {
      for (int i = 0; i < 10; i++) {
        long start = wave * 1_500_000_000L + i * 1_000L;
        r.record(name, start, start + 1_500_000_000L, true);
      }
    }
    RequestStats level = r.snapshot().get(0);
    assertTrue(java.util.Arrays.stream(RunAnalysis.fullWindows(level)).anyMatch(w -> w == 0), "a second with no end");
    assertFalse(kinds(RunAnalysis.of(List.of(level), Optional.empty(), List.of())).contains(Kind.STALL));
    // the same windows with 100 µs calls are a stall
    assertEquals(3, RunAnalysis.stalledWindow(new long[] {1000, 1000, 1000, 0, 1000, 1000}, 100));
  }

  @Test
  void anInjectorThatFellBehindIsAWarningAndItsLevelIsMarkedSaturated() {
    LatencyRecorder r = new LatencyRecorder();
    r.declareOpen("echo 1000 calls/s (async)", 1_000, 100, 0);
    for (int k = 0; k < 3_000; k++) {
      long due = k * 1_000_000L;
      r.recordOpen("echo 1000 calls/s (async)", due, due + 4_000_000L, due + 4_200_000L, null);
    }
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of());
    assertEquals(List.of(Kind.INJECTOR_SATURATED), kinds(a));
    Saturation s = a.level("echo 1000 calls/s (async)").orElseThrow().saturation();
    assertTrue(s.saturated());
    assertEquals(Saturation.INJECTOR, s.limit());
  }

  /** A 15-second rate level at 500 calls/s whose calls of second s all take {@code p50s[s]} µs. */
  private static RequestStats rateLevel(long... p50s) {
    LatencyRecorder r = new LatencyRecorder();
    String name = "echo 500 calls/s (async)";
    r.declareOpen(name, 500, 10_000, 0);
    for (int k = 0; k < 500 * p50s.length; k++) {
      long due = k * 2_000_000L;
      r.recordOpen(name, due, due, due + p50s[k / 500] * 1_000, null);
    }
    return r.snapshot().get(0);
  }

  @Test
  void aRateLevelWhoseLatencyFellAsTheJitWarmedUpIsNotSteady() {
    // gRPC at 500 calls/s after a 4-second warm-up, as measured here: p50 per second.
    RunAnalysis cold = RunAnalysis.of(List.of(rateLevel(2943, 1575, 1719, 1815, 1207, 1183, 1143, 879, 823, 763, 791,
        687, 675, 647, 679)), Optional.empty(), List.of());
    assertEquals(List.of(Kind.LATENCY_NOT_STEADY), kinds(cold));
    assertTrue(cold.warnings().get(0).message().contains("p50 went from 1719 µs to 679 µs"),
        cold.warnings().get(0).message());
    // The same after the automatic warm-up.
    RunAnalysis warm = RunAnalysis.of(List.of(rateLevel(519, 503, 551, 567, 539, 505, 491, 453, 481, 465, 465, 471, 463,
        463, 451)), Optional.empty(), List.of());
    assertEquals(List.of(), warm.warnings());
    assertEquals(0.07, warm.levels().get(0).latencySpread(), 0.01);
  }

  @Test
  void anUnsteadyLevelsAdviceNamesWhatWouldHelpGivenItsSettle() {
    long[] rising = {110, 132, 123, 144, 139, 137, 133, 145, 145, 144, 151, 158, 163, 160, 165, 100};
    Level echo20 = Level.closed(null, 20, InvocationMode.ASYNC);
    String name = echo20.name();
    String unsettled = only(RunAnalysis.of(List.of(level(echo20, rising)), Optional.empty(), List.of(), List.of(),
        List.of(), r -> null), Kind.NOT_STEADY);
    assertTrue(unsettled.contains("measured from its first call") && unsettled.contains("-Dsettle=auto"), unsettled);
    assertFalse(unsettled.contains("-Dwarmup"), "a longer warm-up does not help a level's start: " + unsettled);

    RunInfo.WarmupOutcome settled = new RunInfo.WarmupOutcome(name, "auto (at most 10 s)", 3.4, true, null, null);
    String after = only(RunAnalysis.of(List.of(level(echo20, rising)), Optional.empty(), List.of(), List.of(settled),
        List.of(), r -> null), Kind.NOT_STEADY);
    assertTrue(after.contains("after settling for 3.4 s") && after.contains("-Dduration"), after);

    RunInfo.WarmupOutcome bounded = new RunInfo.WarmupOutcome(name, "auto (at most 10 s)", 10.0, false, null, null);
    RunAnalysis a = RunAnalysis.of(List.of(level(echo20, rising)), Optional.empty(), List.of(), List.of(bounded),
        List.of(), r -> null);
    assertEquals(List.of(Kind.NOT_SETTLED, Kind.NOT_STEADY), kinds(a));
    String notSettled = only(a, Kind.NOT_SETTLED);
    assertTrue(notSettled.contains("measured anyway") && notSettled.contains("auto (at most 10 s)"), notSettled);
    assertTrue(only(a, Kind.NOT_STEADY).contains("did not settle within 10.0 s"), only(a, Kind.NOT_STEADY));
  }

  private static String only(RunAnalysis a, Kind kind) {
    List<String> messages = a.warnings().stream().filter(w -> w.kind() == kind).map(Warning::message).toList();
    assertEquals(1, messages.size(), kind + ": " + a.warnings());
    return messages.get(0);
  }

  @Test
  void aFaultWithoutRecoveryIsWarnedOf() {
    String name = "echo 5 clients (async)";
    RunInfo.FaultOutcome lost = new RunInfo.FaultOutcome(name, true, List.of(), 2.0, 3.0, 10, 0, null, null, false,
        12.0, null, null);
    RunInfo.FaultOutcome unseen = new RunInfo.FaultOutcome(name, true, List.of(), 2.0, 3.0, 10, 0, null, null, null,
        4.0, null, null);
    RunAnalysis a = RunAnalysis.of(List.of(level(name, 1000, 1000, 1000)), Optional.empty(), List.of(),
        List.of(lost, unseen));
    assertTrue(kinds(a).containsAll(List.of(Kind.NO_RECOVERY, Kind.RECOVERY_NOT_SEEN)), a.warnings().toString());
  }
}
