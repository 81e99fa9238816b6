package protocols.shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.lab.LoadParams;
import protocols.stats.Interval;
import protocols.stats.Verdict;
import protocols.thrift.lab.ThriftFramework;

/** RpcTuning's sweep (which configurations, named how) and its report's choices (the best, the next base). */
class TuningTest {
  private static List<String> names(List<Configuration> cs) {
    return cs.stream().map(Configuration::name).toList();
  }

  @Test
  void aSweepMovesOneKnobAtATimeAroundTheDefaults() {
    List<Configuration> cs = Configuration.sweep(List.of(ThriftFramework.FRAMEWORK), new LoadParams(Map.of()),
        Optional.empty());
    assertEquals(List.of("thrift", "thrift protocol=compact", "thrift client=loops", "thrift server=hsha",
        "thrift server=nonblocking", "thrift server=threadpool", "thrift selectors=1", "thrift selectors=4",
        "thrift serverThreads=8"), names(cs));
    assertTrue(cs.get(0).base() && cs.get(0).defaults());
    assertEquals("compact", cs.get(1).values().get("thrift.protocol"));
    assertEquals("thrift.protocol", cs.get(1).knob().property());
  }

  @Test
  void aGivenValueIsTheBaseAndTheDefaultsStayBesideIt() {
    List<Configuration> cs = Configuration.sweep(List.of(ThriftFramework.FRAMEWORK),
        new LoadParams(Map.of("thrift.protocol", "compact")), Optional.of("thrift.protocol,thrift.selectors"));
    assertEquals(List.of("thrift", "thrift protocol=compact", "thrift protocol=compact selectors=1",
        "thrift protocol=compact selectors=4"),
        names(cs), "the defaults, the base, then around the base (protocol=binary is the defaults: not twice)");
    assertTrue(!cs.get(0).base() && cs.get(0).defaults() && cs.get(1).base());
    assertEquals("compact", cs.get(1).params(new LoadParams(Map.of())).string("thrift.protocol", "?"));
  }

  @Test
  void anUnknownKnobOrABadValueIsOneLine() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Configuration.sweep(
        List.of(ThriftFramework.FRAMEWORK), new LoadParams(Map.of()), Optional.of("thrift.selector")));
    assertTrue(e.getMessage().startsWith("-Dknobs: no knob 'thrift.selector'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Configuration.sweep(List.of(ThriftFramework.FRAMEWORK),
        new LoadParams(Map.of("thrift.serverThreads", "lots")), Optional.empty()));
    assertTrue(e.getMessage().contains("-Dthrift.serverThreads"), e.getMessage());
  }

  private static TuningReport.Row row(String configuration, boolean defaults, double ratio, double lo, double hi,
                                      Verdict verdict) {
    Interval calls = new Interval(900, 1000, 1100, "test");
    Interval vs = defaults ? null : new Interval(lo, ratio, hi, "test");
    return new TuningReport.Row("thrift", configuration, null, null, null, defaults, defaults, 20, 2, 100, 0, calls,
        calls, calls, null, vs, defaults ? null : verdict, null, null, null, null, null, 0);
  }

  private static TuningReport.Row withKo(TuningReport.Row r) {
    return new TuningReport.Row(r.framework(), r.configuration(), r.knob(), r.value(), r.side(), r.base(),
        r.defaults(), r.clients(), r.trials(), r.calls(), 3, r.callsPerSecond(), r.p50(), r.p99(), r.cpuPerCall(),
        r.vsDefaults(), r.verdict(), r.p50VsDefaults(), r.p50Verdict(), r.p99VsDefaults(), r.p99Verdict(), r.server(),
        r.warnings());
  }

  @Test
  void theBestIsTheFastestOfThoseMeasurablyFasterElseTheDefaults() {
    List<TuningReport.Best> best = TuningReport.best(List.of(row("thrift", true, 1, 1, 1, null),
        row("thrift a=1", false, 1.30, 0.9, 1.7, Verdict.NO_DIFFERENCE),
        row("thrift b=1", false, 1.10, 1.05, 1.15, Verdict.FASTER),
        row("thrift c=1", false, 1.20, 1.10, 1.30, Verdict.FASTER),
        withKo(row("thrift d=1", false, 1.40, 1.30, 1.50, Verdict.FASTER))));
    assertEquals("thrift c=1", best.get(0).configuration(), "a wider, higher median without a verdict does not win,"
        + " nor one that failed calls");
    best = TuningReport.best(List.of(row("thrift", true, 1, 1, 1, null),
        row("thrift a=1", false, 1.30, 0.9, 1.7, Verdict.NO_DIFFERENCE)));
    assertEquals("thrift", best.get(0).configuration());
    assertNull(best.get(0).vsDefaults());
    assertTrue(best.get(0).why().contains("the highest median: thrift a=1"), best.get(0).why());
  }

  /** A row whose trials carry validity warnings is still a row, but every place it is read says so. */
  @Test
  void aWarnedRowSaysSoInTheBestTheCsvAndTheConsole() {
    TuningReport.Row warned = withWarnings(row("thrift c=1", false, 1.20, 1.10, 1.30, Verdict.FASTER), 2);
    List<TuningReport.Row> rows = List.of(row("thrift", true, 1, 1, 1, null), warned);
    TuningReport.Best best = TuningReport.best(rows).get(0);
    assertEquals("thrift c=1", best.configuration());
    assertTrue(best.why().contains("2 of its trials with a validity warning"), best.why());
    String[] csv = TuningReport.csv(rows).split("\n");
    assertTrue(csv[0].endsWith(",warnings") && csv[1].endsWith(",0") && csv[2].endsWith(",2"), String.join("\n", csv));
    String console = TuningReport.console(rows, List.of(best), List.of(), Map.of());
    assertTrue(console.lines().anyMatch(l -> l.startsWith("thrift c=1") && l.endsWith("faster (2 warned)")), console);
    assertTrue(console.lines().noneMatch(l -> l.startsWith("thrift ") && l.contains("(the defaults)")
        && l.contains("warned")), console);
  }

  private static TuningReport.Row withWarnings(TuningReport.Row r, int warnings) {
    return new TuningReport.Row(r.framework(), r.configuration(), r.knob(), r.value(), r.side(), r.base(),
        r.defaults(), r.clients(), r.trials(), r.calls(), r.ko(), r.callsPerSecond(), r.p50(), r.p99(), r.cpuPerCall(),
        r.vsDefaults(), r.verdict(), r.p50VsDefaults(), r.p50Verdict(), r.p99VsDefaults(), r.p99Verdict(), r.server(),
        warnings);
  }

  @Test
  void theNextBaseTakesEachKnobsFasterValueOnly() {
    Map<String, Map<String, String>> next = TuningReport.tuned(List.of(
        new TuningReport.Knob("thrift", "thrift.protocol", "both", "", "binary", "binary", List.of("binary", "compact"),
            "compact", true, List.of()),
        new TuningReport.Knob("thrift", "thrift.selectors", "server", "", "2", "2", List.of("2", "1", "4"), null,
            false, List.of())));
    assertEquals(Map.of("thrift", Map.of("thrift.protocol", "compact", "thrift.selectors", "2")), next);
  }

  @Test
  void theNextSweepNamesAKnobOnceAndSaysWhenFrameworksSharingItDisagree() {
    Map<String, Map<String, String>> tuned = new java.util.LinkedHashMap<>();
    tuned.put("dubbo", Map.of("connections", "2"));
    tuned.put("grpc", Map.of("connections", "0"));
    tuned.put("ice", Map.of("connections", "0"));
    assertEquals("-Dconnections=(2 for dubbo, 0 for grpc, 0 for ice: one -D sets every framework's, so sweep them"
        + " apart)", TuningReport.nextSweep(tuned));
    tuned.put("dubbo", Map.of("connections", "0"));
    assertEquals("-Dconnections=0", TuningReport.nextSweep(tuned));
  }
}
