package protocols.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.rpc.InvocationMode;

class SummariesTest {
  /** A summary as 122dca6 wrote it: RpcShootout grpc,netty, levels=1, rates=200, faults stop@1s,cont@1500ms. */
  static final Path BEFORE_LEVELS = Paths.get("src/test/resources/summaries/rpc-summary-122dca6.json");

  @Test
  void aSummaryWrittenBeforeLevelsWereRecordedStillReads() throws Exception {
    Summaries.Summary s = Summaries.read(BEFORE_LEVELS);
    Map<String, Level> expected = Map.of(
        "grpc warm-up (async)", Level.warmup("grpc", InvocationMode.ASYNC),
        "grpc echo 1 clients (async)", Level.closed("grpc", 1, InvocationMode.ASYNC),
        "grpc echo 1 clients (async) during fault", Level.closed("grpc", 1, InvocationMode.ASYNC).inFaultWindow(),
        "grpc echo 200 calls/s (async)", Level.rate("grpc", 200, InvocationMode.ASYNC),
        "netty echo 200 calls/s (async) during fault", Level.rate("netty", 200, InvocationMode.ASYNC).inFaultWindow());
    assertEquals(10, s.requests().size());
    for (RequestStats r : s.requests()) {
      assertEquals(r.name(), r.level().name(), "the level read from a name names it back");
      if (expected.containsKey(r.name())) {
        assertEquals(expected.get(r.name()), r.level(), r.name());
      }
      assertTrue(r.count() > 0 && r.decodeHistogram().getTotalCount() > 0, r.name());
    }
    assertEquals(List.of(false, true, true, true, true), s.requests().stream().limit(5).map(RequestStats::measured)
        .toList(), "the warm-up is no measurement; the levels and their fault windows are");
    assertEquals(4, s.run().faults().size());
    assertEquals("stop", s.run().faults().get(0).events().get(0).action());
    assertEquals(2, s.run().warmups().size());
    assertTrue(s.run().startedAtEpochMillis() > 0);
    assertTrue(s.requests().get(3).isOpen(), "the rate level's open-model figures");
  }

  @Test
  void aSummaryReadsBackAsItWasWritten(@TempDir Path dir) throws Exception {
    LatencyRecorder r = new LatencyRecorder();
    Level level = Level.closed("dubbo", 1, InvocationMode.ASYNC);
    r.describe(level.name(), level);
    for (int i = 0; i < 1_000; i++) {
      r.record(level.name(), i * 1_000_000L, i * 1_000_000L + 150_000, i % 100 == 0 ? "timeout after 3000 ms" : null);
    }
    r.record("a call of one's own", 0, 80_000, true);
    RunInfo run = RunInfo.ofRun(List.of(Map.of("framework", "dubbo")), false, RunInfo.Injector.ALONE, 1_000, "run-1",
        Map.of("levels", "1"), List.of(), List.of());
    Warning busy = new Warning(level.name(), Warning.Kind.BUSY_MACHINE, "other work used 40% of the CPU");
    Path file = Summaries.write(dir.resolve(Summaries.FILE), new Summaries.Summary(run, List.of(busy), r.snapshot(),
        Map.of()));
    assertTrue(Files.notExists(dir.resolve(Summaries.FILE + ".tmp")));

    JsonNode root = new ObjectMapper().readTree(file.toFile());
    assertEquals(Summaries.FORMAT, root.get("format").asInt());
    assertEquals("microseconds", root.get("unit").asText());
    JsonNode echo = root.get("requests").get(level.name());
    for (String field : List.of("count", "ko", "durationSeconds", "throughput", "mean", "p50", "p90", "p99", "p999",
        "max", "histogram", "okPerSecond", "level")) {
      assertTrue(echo.has(field), field);
    }
    assertEquals(150, echo.get("p50").asLong(), 1);
    assertEquals("busy-machine", root.get("warnings").get(0).get("kind").asText(), "a kind is written as its id");

    Summaries.Summary back = Summaries.read(file);
    RequestStats written = r.stats(level.name()).orElseThrow();
    RequestStats read = back.requests().get(0);
    assertEquals(level, read.level());
    assertEquals(written.count(), read.count());
    assertEquals(written.ko(), read.ko());
    assertEquals(written.p99(), read.p99());
    assertEquals(written.koReasons(), read.koReasons());
    assertEquals(written.decodeHistogram(), read.decodeHistogram());
    assertNull(back.requests().get(1).level(), "a request of one's own has no level");
    assertTrue(back.requests().get(1).measured());
    assertEquals("run-1", back.run().gatlingRun());
    assertEquals(List.of(busy), back.warnings(), "and read back as the same kind");
    assertFalse(back.run().interrupted());
  }
}
