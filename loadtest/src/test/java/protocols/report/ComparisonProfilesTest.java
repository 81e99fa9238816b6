package protocols.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;
import protocols.stats.profile.Breakdown;
import protocols.stats.profile.Component;
import protocols.stats.profile.LevelProfile;

class ComparisonProfilesTest {
  private static final String STACKS = """
      java/lang/Thread.run_[0];io/grpc/internal/ServerImpl.run_[j] 6
      java/lang/Thread.run_[0];io/gatling/core/action/Action.execute_[j] 3
      java/lang/Thread.run_[0];protocols/rpc/RpcCallAction.send_[j] 1
      """;

  private static Comparison.ProfileRow row(LevelProfile.Side side, Double cpuUsPerCall) {
    return row(side, 2, STACKS, cpuUsPerCall);
  }

  private static Comparison.ProfileRow row(LevelProfile.Side side, int trial, String stacks, Double cpuUsPerCall) {
    Level level = Level.closed("grpc", 20, InvocationMode.ASYNC).trial(trial);
    return Comparison.ProfileRow.of(level, LevelProfile.of(level.name(), side, "profiles/level-03-" + side.label()
        + ".html", Breakdown.ofCollapsed(stacks), cpuUsPerCall));
  }

  @Test
  void aRowIsItsLevelsValuesThenItsProfile() throws Exception {
    JsonNode json = new ObjectMapper().valueToTree(row(LevelProfile.Side.INJECTOR, 50.0));
    assertEquals("grpc", json.get("framework").asText());
    assertEquals("async", json.get("mode").asText());
    assertEquals(20, json.get("clients").asInt());
    assertEquals(2, json.get("trial").asInt());
    assertEquals("injector", json.get("side").asText());
    assertEquals(10, json.get("samples").asLong());
    assertEquals(0.6, json.get("shares").get(Component.FRAMEWORK.label()).asDouble(), 1e-9);
    assertEquals(30.0, json.get("cpuUsPerCall").get(Component.FRAMEWORK.label()).asDouble(), 1e-9);
    assertEquals(0.4, json.get("harnessShare").asDouble(), 1e-9, "Gatling's and the lab's samples");
    assertTrue(json.get("flameGraph").asText().endsWith("injector.html"));
  }

  @Test
  void theCsvHasALinePerLevelSideAndComponent() {
    String csv = Comparison.profilesCsv(List.of(row(LevelProfile.Side.INJECTOR, 50.0),
        row(LevelProfile.Side.SERVER, null)));
    List<String> lines = csv.lines().toList();
    assertEquals(1 + 2 * Component.values().length, lines.size());
    assertEquals("grpc,async,20,2,injector,10,framework,0.6000,30.00,profiles/level-03-injector.html", lines.get(1));
    assertTrue(lines.get(1 + Component.values().length).startsWith("grpc,async,20,2,server,10,framework,0.6000,,"),
        "no CPU µs without the CPU: " + lines.get(1 + Component.values().length));
    assertNull(row(LevelProfile.Side.SERVER, null).profile().harnessShare());
  }

  @Test
  void theHarnessTableIsTheInjectorLessThePlainDriverByComponentOverTrials() {
    String plainStacks = "java/lang/Thread.run_[0];io/grpc/internal/ServerImpl.run_[j] 5\n";
    String table = Comparison.harnessProfileTable(List.of(row(LevelProfile.Side.INJECTOR, 1, STACKS, 50.0),
        row(LevelProfile.Side.SERVER, 1, STACKS, 99.0), row(LevelProfile.Side.PLAIN, 1, plainStacks, 16.0),
        row(LevelProfile.Side.INJECTOR, 2, STACKS, 50.0), row(LevelProfile.Side.PLAIN, 2, plainStacks, 24.0)));
    List<String> lines = table.strip().lines().toList();
    assertEquals(3, lines.size(), table);
    List<String> cells = List.of(lines.get(2).trim().split(" +"));
    assertEquals(List.of("grpc", "async", "20", "50.0", "20.0"), cells.subList(0, 5), table);
    // 30 µs of the framework against the plain driver's 20; Gatling's 15 and the lab's 5 are the harness's own.
    assertEquals("+10.0", cells.get(5 + Component.FRAMEWORK.ordinal()), table);
    assertEquals("+15.0", cells.get(5 + Component.GATLING.ordinal()), table);
    assertEquals("+5.0", cells.get(5 + Component.LAB.ordinal()), table);
    assertEquals(5 + Component.values().length, cells.size(), table);
    assertTrue(lines.get(1).contains("Gatling") && lines.get(1).contains("locks and hand-offs"), table);
    assertEquals("", Comparison.harnessProfileTable(List.of(row(LevelProfile.Side.INJECTOR, 50.0))),
        "no table without the plain driver's side");
  }
}
