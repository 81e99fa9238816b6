package protocols.shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.stats.profile.ProfileEvent;

class PlainProfilesTest {
  private static final Map<String, Path> RECORDED = Map.of("grpc async", Path.of("plain-grpc-async.jfr"));

  @Test
  void thePlainDriversProfilerIsNamedAsItRanAndOnlyCpuSamplesGiveMicrosPerCall() {
    PlainProfiles agent = PlainProfiles.of(ProfileEvent.CPU, true, RECORDED);
    assertEquals("async-profiler (cpu, every 1 ms of CPU)", agent.profiler());
    assertTrue(agent.cpuTime());

    PlainProfiles jfr = PlainProfiles.of(ProfileEvent.CPU, false, RECORDED);
    assertTrue(jfr.profiler().startsWith("JDK Flight Recorder"), jfr.profiler());
    assertFalse(jfr.cpuTime(), "JFR's method samples are not CPU time");

    assertFalse(PlainProfiles.of(ProfileEvent.ALLOC, true, RECORDED).cpuTime(), "allocation samples are not CPU time");
  }
}
