package protocols.stats.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrameClassifierTest {

  /** Lines of recorded-stacks.txt: the expected component, a tab, a stack async-profiler recorded. */
  private static List<String[]> recorded() throws IOException {
    try (InputStream in = FrameClassifierTest.class.getResourceAsStream("/profiles/recorded-stacks.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split("\t", 2)).toList();
    }
  }

  @Test
  void eachRecordedStackGoesToTheComponentItsCodeIs() throws IOException {
    List<String[]> stacks = recorded();
    assertTrue(stacks.size() >= 12, "the resource lost its stacks");
    for (String[] s : stacks) {
      List<String> frames = List.of(s[1].split(";"));
      assertEquals(Component.valueOf(s[0]), FrameClassifier.of(frames),
          "stack ending " + frames.subList(Math.max(0, frames.size() - 3), frames.size()));
    }
  }

  @Test
  void theJdksCommonCodePassesTheSampleToItsCaller() {
    // protobuf building a String: serialization, not the JDK
    assertEquals(Component.SERIALIZATION, FrameClassifier.of(List.of("java/lang/Thread.run_[0]",
        "com/google/protobuf/Utf8.decodeUtf8_[i]", "java/lang/String.<init>_[j]", "java/util/Arrays.copyOfRange_[j]")));
    // the same HashMap.get in the lab is the lab's
    assertEquals(Component.LAB, FrameClassifier.of(List.of("java/lang/Thread.run_[0]",
        "protocols/rpc/RpcCallAction.send_[j]", "java/util/HashMap.get_[i]")));
    // nothing known: other
    assertEquals(Component.OTHER, FrameClassifier.of(List.of("java/lang/Thread.run_[0]", "java/util/HashMap.get_[i]")));
    assertEquals(Component.OTHER, FrameClassifier.of(List.of()));
  }

  @Test
  void aKernelLeafIsTheKernelsAndAVmThreadIsTheVmsWhereverItIs() {
    assertEquals(Component.KERNEL, FrameClassifier.of(List.of("io/netty/channel/epoll/Native.epollWait_[j]",
        "epoll_wait", "do_epoll_wait_[k]")));
    assertEquals(Component.GC_JIT, FrameClassifier.of(List.of("clone3", "GangWorker::loop", "schedule_[k]")));
  }

  @Test
  void serializationInsideAFrameworksPackageIsSerialization() {
    assertEquals(Component.SERIALIZATION, FrameClassifier.ofFrame("org/apache/dubbo/common/serialize/hessian2/Hessian2ObjectOutput.writeObject_[j]"));
    assertEquals(Component.SERIALIZATION, FrameClassifier.ofFrame("org.apache.thrift.protocol.TBinaryProtocol.writeString"));
    assertEquals(Component.TRANSPORT, FrameClassifier.ofFrame("org/apache/thrift/transport/TNonblockingSocket.write_[j]"));
    assertEquals(Component.FRAMEWORK, FrameClassifier.ofFrame("org/apache/dubbo/rpc/proxy/InvokerInvocationHandler.invoke_[j]"));
    assertNull(FrameClassifier.ofFrame("java/util/ArrayList.add_[i]"));
  }

  @Test
  void aBreakdownCountsEverySampleOnceAndItsSharesAddUpToOne() throws IOException {
    StringBuilder collapsed = new StringBuilder("not a stack line\n");
    long expected = 0;
    int n = 1;
    for (String[] s : recorded()) {
      collapsed.append(s[1]).append(' ').append(n).append('\n');
      expected += n++;
    }
    Breakdown b = Breakdown.ofCollapsed(collapsed.toString());
    assertEquals(expected, b.total());
    assertEquals(1.0, b.shares().values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    assertEquals(Component.values().length, b.sharesByLabel().size());
    assertTrue(new Breakdown().shares().isEmpty());
  }

  @Test
  void profileTakesFalseTrueAndTheThreeEventsAndRefusesAnythingElseInOneLine() {
    assertNull(ProfileEvent.parse("false"));
    assertEquals(ProfileEvent.CPU, ProfileEvent.parse("true"));
    assertEquals(ProfileEvent.CPU, ProfileEvent.parse("CPU"));
    assertEquals(ProfileEvent.ALLOC, ProfileEvent.parse("alloc"));
    assertEquals(ProfileEvent.LOCK, ProfileEvent.parse("lock"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProfileEvent.parse("wall"));
    assertTrue(e.getMessage().contains("'wall'") && !e.getMessage().contains("\n"), e.getMessage());
    Map<String, Double> none = new Breakdown().sharesByLabel();
    assertTrue(none.isEmpty());
  }
}
