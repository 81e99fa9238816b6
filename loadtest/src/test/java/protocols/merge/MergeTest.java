package protocols.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.stats.LatencyRecorder;
import protocols.stats.Summaries;
import protocols.stats.RunInfo;
import protocols.stats.RequestStats;
import protocols.load.RunAnalysis;
import protocols.stats.Warning;
import protocols.stats.Warning.Kind;

class MergeTest {
  private static final String LEVEL = "echo 5 clients (async)";
  private static final long T0 = 1_790_000_000_000L; // epoch ms

  @Test
  void mergingTwoInjectorsEqualsRecordingBothStreamsInOne(@TempDir Path dir) throws Exception {
    LatencyRecorder a = new LatencyRecorder();
    LatencyRecorder b = new LatencyRecorder();
    LatencyRecorder both = new LatencyRecorder();
    Random random = new Random(42);
    long now = System.nanoTime();
    for (int i = 0; i < 20_000; i++) {
      // Two different shapes: a fast injector and a slow, long-tailed one.
      long fast = 50_000 + (long) (random.nextGaussian() * 5_000 + 5_000);
      long slow = 200_000 + (long) (Math.abs(random.nextGaussian()) * 900_000);
      long start = now + i * 100_000L;
      String koA = i % 1_000 == 0 ? "timeout" : null;
      a.record(LEVEL, start, start + Math.max(1_000, fast), koA);
      b.record(LEVEL, start, start + slow, (String) null);
      both.record(LEVEL, start, start + Math.max(1_000, fast), koA);
      both.record(LEVEL, start, start + slow, (String) null);
    }
    Path runA = write(a, dir.resolve("a"), 0, 2, Map.of("timeout", "1000"));
    Path runB = write(b, dir.resolve("b"), 1, 2, Map.of("timeout", "1000"));

    Merge.Result merged = Merge.of(List.of(InjectorRun.read(runA), InjectorRun.read(runB)), 2);
    RequestStats m = merged.requests().get(0);
    RequestStats expected = both.stats(LEVEL).orElseThrow();
    assertEquals(expected.count(), m.count());
    assertEquals(expected.ko(), m.ko());
    assertEquals(expected.decodeHistogram(), m.decodeHistogram(), "the merged histogram is the one of both streams");
    assertEquals(List.of(expected.p50(), expected.p90(), expected.p99(), expected.p999(), expected.max()),
        List.of(m.p50(), m.p90(), m.p99(), m.p999(), m.max()));
    assertEquals(expected.mean(), m.mean(), 1e-9);
    assertEquals(expected.spectrum(), m.spectrum());
    assertEquals(Map.of("timeout", 20L), m.koReasons());
    // Not an average of the two p99s: the slow injector's tail dominates the merged one.
    RequestStats ra = a.stats(LEVEL).orElseThrow();
    RequestStats rb = b.stats(LEVEL).orElseThrow();
    assertTrue(m.p99() != (ra.p99() + rb.p99()) / 2);
    assertTrue(m.p99() >= Math.min(ra.p99(), rb.p99()) && m.p99() <= Math.max(ra.p99(), rb.p99()));
    assertEquals(2, merged.perInjector().get(LEVEL).size());
    assertTrue(kinds(merged).stream().noneMatch(k -> List.of(Kind.SETTINGS_DIFFER, Kind.INJECTORS, Kind.LATE_START,
        Kind.MISSING_LEVEL, Kind.INJECTOR_SKEW, Kind.NO_COMMON_WINDOW).contains(k)), merged.warnings().toString());
  }

  @Test
  void throughputIsTheSumOverTheCommonWindow() {
    // Injector 0: 10 s at 100 calls/s from T0; injector 1: 10 s at 50 calls/s from T0 + 2 s.
    InjectorRun first = run(0, 2, Map.of(), level(LEVEL, T0, 100, 10));
    InjectorRun late = run(1, 2, Map.of(), level(LEVEL, T0 + 2_000, 50, 10));
    Merge.Result merged = Merge.of(List.of(first, late), 2);
    RequestStats m = merged.requests().get(0);
    assertEquals(1_500, m.count());
    assertEquals(150, m.okThroughput(), 1e-9, "100 + 50: each injector's rate while both ran");
    assertEquals(8, m.durationSeconds(), 1e-9, "the common window: from T0 + 2 s to T0 + 10 s");
    // The windows on one time line: 100 alone for 2 s, then 150, then 50 alone.
    assertEquals(List.of(100L, 100L, 150L, 150L, 150L, 150L, 150L, 150L, 150L, 150L, 50L, 50L),
        Arrays.stream(m.okWindows()).boxed().toList());
    List<RunInfo.InjectorLevel> rows = merged.perInjector().get(LEVEL);
    assertEquals(List.of(0L, 2_000L), rows.stream().map(RunInfo.InjectorLevel::startOffsetMillis).toList());
    assertTrue(kinds(merged).contains(Kind.LATE_START), merged.warnings().toString());
    assertTrue(kinds(merged).contains(Kind.INJECTOR_SKEW), "50 calls/s is under 80% of the mean 75");
    assertTrue(rows.get(1).slow());
    assertFalse(rows.get(0).slow());
  }

  @Test
  void differentSettingsAMissingLevelAndAMissingInjectorWarn() {
    InjectorRun a = run(0, 3, Map.of("timeout", "1000", "levels", "5,20"), level(LEVEL, T0, 100, 5),
        level("echo 20 clients (async)", T0 + 7_000, 100, 5));
    InjectorRun b = run(1, 3, Map.of("timeout", "3000", "levels", "5,20"), level(LEVEL, T0, 100, 5));
    Merge.Result merged = Merge.of(List.of(a, b), 3);
    List<Kind> kinds = kinds(merged);
    assertTrue(kinds.contains(Kind.SETTINGS_DIFFER), merged.warnings().toString());
    assertTrue(merged.warnings().stream().anyMatch(w -> w.message().contains("timeout=3000")),
        merged.warnings().toString());
    assertTrue(kinds.contains(Kind.MISSING_LEVEL), merged.warnings().toString());
    assertTrue(kinds.contains(Kind.INJECTORS), "2 runs merged of 3 expected: " + merged.warnings());
    assertEquals(2, merged.requests().size());
    assertEquals(500, merged.requests().get(1).count(), "the missing level holds injector 0's calls alone");
  }

  @Test
  void aSummaryWrittenBeforeLevelsWereRecordedStillMerges(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("run"));
    Files.copy(Path.of("src/test/resources/summaries/rpc-summary-122dca6.json"), folder.resolve(Summaries.FILE));
    InjectorRun old = InjectorRun.read(folder);
    Merge.Result merged = Merge.of(List.of(old), 1);
    assertEquals(old.requests().size(), merged.requests().size());
    for (RequestStats r : merged.requests()) {
      assertEquals(r.name(), r.level().name(), "its level, read from the old name, kept by the merge");
      assertEquals(old.request(r.name()).orElseThrow().count(), r.count());
    }
    assertTrue(merged.analysis().levels().stream().filter(l -> l.request().endsWith("warm-up (async)"))
        .allMatch(RunAnalysis.Assessment::warmup), "the warm-ups still count as no measurement");
  }

  @Test
  void theSameInjectorTwiceWarns() {
    InjectorRun a = run(0, 2, Map.of(), level(LEVEL, T0, 100, 5));
    assertTrue(kinds(Merge.of(List.of(a, a), 2)).contains(Kind.INJECTORS));
  }

  @Test
  void badInputIsOneLine(@TempDir Path dir) throws Exception {
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> InjectorRun.read(dir));
    assertTrue(none.getMessage().contains("holds no run with an rpc-summary.json"), none.getMessage());
    Files.createDirectories(dir.resolve("old"));
    Files.writeString(dir.resolve("old").resolve(Summaries.FILE), "{\"requests\":{}}");
    IllegalArgumentException old = assertThrows(IllegalArgumentException.class,
        () -> InjectorRun.read(dir.resolve("old")));
    assertTrue(old.getMessage().contains("no injector identity"), old.getMessage());
    IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class,
        () -> MergeCommand.expand(dir.resolve("injector-*").toString()));
    assertTrue(nothing.getMessage().startsWith("-Druns: nothing matches"), nothing.getMessage());
  }

  @Test
  void aGlobNamesEveryInjectorFolder(@TempDir Path dir) throws Exception {
    for (String name : List.of("injector-1", "injector-0", "other")) {
      Files.createDirectories(dir.resolve(name));
    }
    assertEquals(List.of(dir.resolve("injector-0").toAbsolutePath(), dir.resolve("injector-1").toAbsolutePath()),
        MergeCommand.expand(dir.resolve("injector-*").toString()).stream().map(Path::toAbsolutePath).toList());
  }

  private static List<Kind> kinds(Merge.Result r) {
    return r.warnings().stream().map(Warning::kind).toList();
  }

  /** A level of {@code seconds} full windows of {@code perSecond} OK calls from {@code start}, all 100 µs. */
  private static RequestStats level(String name, long start, int perSecond, int seconds) {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(100, (long) perSecond * seconds);
    long[] ok = new long[seconds];
    Arrays.fill(ok, perSecond);
    long end = start + seconds * 1_000L;
    long count = (long) perSecond * seconds;
    return RequestStats.of(name, count, 0, seconds, perSecond, perSecond, h, Map.of(), ok, new long[seconds],
        new long[0], new long[0], start * 1_000_000L, end * 1_000_000L, end * 1_000_000L, start, end, end, null);
  }

  private static InjectorRun run(int index, int count, Map<String, String> settings, RequestStats... requests) {
    return new InjectorRun(Path.of("injector-" + index), index, count, "host" + index, T0, false, settings,
        List.of(Map.of("framework", "dubbo")), List.of(requests), List.of());
  }

  private static Path write(LatencyRecorder recorder, Path folder, int index, int count, Map<String, String> settings)
      throws Exception {
    RunInfo run = RunInfo.ofRun(List.of(Map.of("framework", "dubbo")), false,
        new RunInfo.Injector(index, count, "h" + index, null, null, null), System.currentTimeMillis(), "run", settings,
        List.of(), List.of());
    Summaries.write(folder.resolve(Summaries.FILE), new Summaries.Summary(run, List.of(), recorder.snapshot(),
        Map.of()));
    return folder;
  }
}
