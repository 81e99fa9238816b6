package protocols.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.load.RunAnalysis;
import protocols.stats.LatencyRecorder;
import protocols.stats.RunInfo;

class RpcReportPageTest {

  @Test
  void theValidityBoxSaysWhatWasNotChecked() {
    LatencyRecorder r = new LatencyRecorder();
    for (int i = 0; i < 5_000; i++) {
      long start = i * 1_000_000L;
      r.record("echo 1 clients (async)", start, start + 100_000, true);
    }
    RunAnalysis a = RunAnalysis.of(r.snapshot(), Optional.empty(), List.of())
        .withCpuNotSampledBecause("no /proc/stat to read the machine's CPU time from (Linux only)");
    assertEquals(List.of(), a.warnings());
    String page = RpcReportPage.render("t", r.snapshot(), a, RunInfo.ofRun(List.of(), false, RunInfo.Injector.ALONE, 0, "run",
        Map.of(), List.of(), List.of()), false, null);
    assertTrue(page.contains("id=\"not-checked\""), "the page says other work was not checked");
    assertTrue(page.contains("(Linux only)"), "and why");
    assertTrue(!page.contains("no other work on the machine above the threshold"), "nor claims it was");
  }
}
