package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParametersTest {
  private static final Set<String> FRAMEWORK_PARAMS = Set.of("serialization", "thrift.protocol");
  private static final Set<String> FRAMEWORKS = Set.of("dubbo", "thrift", "grpc", "ice", "netty");
  private static final Parameters.Run DUBBO_ECHO = new Parameters.Run("DubboEcho", EnumSet.of(Parameters.Use.ECHO),
      Set.of("serialization"), FRAMEWORK_PARAMS, FRAMEWORKS, false);
  private static final Parameters.Run SHOOTOUT = new Parameters.Run("RpcShootout",
      EnumSet.of(Parameters.Use.SHOOTOUT), FRAMEWORK_PARAMS, FRAMEWORK_PARAMS, FRAMEWORKS, true);

  @Test
  void aLikelyTypoEndsTheRunWithTheNameItMeant() {
    assertEquals("-Dlevles is not a parameter of this lab: did you mean -Dlevels?",
        assertThrows(IllegalArgumentException.class, () -> Parameters.check(List.of("levles"), DUBBO_ECHO))
            .getMessage());
    assertEquals("-Dthrift.protocl is not a parameter of this lab: did you mean -Dthrift.protocol?",
        assertThrows(IllegalArgumentException.class, () -> Parameters.check(List.of("thrift.protocl"), SHOOTOUT))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> Parameters.check(List.of("Duration"), DUBBO_ECHO));
    assertThrows(IllegalArgumentException.class, () -> Parameters.check(List.of("target.dubo"), SHOOTOUT));
  }

  @Test
  void aNameTheRunDoesNotTakeOrTheLabDoesNotKnowIsOneLineAndIgnored() {
    assertEquals(List.of("-Dframeworks is not a parameter of DubboEcho (it is one of RpcShootout and RpcNightly,"
        + " OwnServiceDemo, StreamingDemo and StreamShootout): ignored"), Parameters.check(List.of("frameworks", "levels"), DUBBO_ECHO));
    assertEquals(List.of("-Ddatacenter is not a parameter of this lab (docs/parameters.md): ignored",
        "-Dtenant is not a parameter of this lab (docs/parameters.md): ignored"),
        Parameters.check(List.of("tenant", "datacenter"), DUBBO_ECHO));
    assertEquals(List.of("-Dtarget.dubbo is not a parameter of DubboEcho: ignored",
        "-Dthrift.protocol is not a parameter of DubboEcho: ignored"),
        Parameters.check(List.of("thrift.protocol", "target.dubbo"), DUBBO_ECHO));
    assertEquals(List.of(), Parameters.check(List.of("target.dubbo", "thrift.protocol", "plain", "serialization"),
        SHOOTOUT));
    Parameters.Run thriftEcho = new Parameters.Run("ThriftEcho", EnumSet.of(Parameters.Use.ECHO),
        Set.of("thrift.protocol"), Set.of("thrift.protocol", "connections"), FRAMEWORKS, false);
    assertEquals(List.of(), Parameters.check(List.of("connections"), thriftEcho),
        "a lab parameter that other frameworks also take as a knob stays the lab's");
    assertEquals(List.of(), Parameters.check(List.of("java.version", "user.dir", "gatling.runDescription",
        "slf4j.provider", "plain.out", "simulation"), DUBBO_ECHO), "the JVM's, Gatling's and the lab's own JVMs'");
  }

  @Test
  void theParametersPageListsEveryParameterWithItsDefault() throws Exception {
    String all = Files.readString(Path.of("..", "docs", "parameters.md"));
    String readme = all.substring(all.indexOf("| parameter | default | meaning |"));
    for (Parameters.Param p : Parameters.ALL) {
      int row = readme.indexOf("\n| `" + p.name() + "` |");
      assertTrue(row >= 0, "no row for -D" + p.name() + " in docs/parameters.md");
      String line = readme.substring(row + 1, readme.indexOf('\n', row + 1));
      assertTrue(line.contains(p.defaultValue()), "-D" + p.name() + "'s default " + p.defaultValue() + " in: " + line);
    }
    for (RpcFramework<?, ?> f : protocols.frameworks.Frameworks.ALL) {
      for (RpcFramework.Param p : f.params()) {
        int row = readme.indexOf("\n| `" + p.property() + "` |");
        assertTrue(row >= 0, "no row for " + f.name() + "'s -D" + p.property() + " in docs/parameters.md");
        String line = readme.substring(row + 1, readme.indexOf('\n', row + 1));
        assertTrue(line.contains("`" + p.defaultValue() + "`"), "-D" + p.property() + "'s default in: " + line);
      }
    }
  }
}
