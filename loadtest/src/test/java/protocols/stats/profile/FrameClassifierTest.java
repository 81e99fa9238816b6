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
  void ioAndHandOffsAreTheHarnesssWhenTheHarnessAskedForThemAndStayIoOrHandOffsOtherwise() {
    List<String> thriftWrites = List.of("java/lang/Thread.run_[0]",
        "org/apache/thrift/transport/TNonblockingSocket.write_[j]", "sun/nio/ch/SocketChannelImpl.write_[j]");
    assertEquals(Component.JDK_IO, FrameClassifier.of(thriftWrites));
    List<String> gatlingWrites = List.of("java/lang/Thread.run_[0]",
        "io/gatling/core/stats/writer/BufferedFileChannelWriter.flush_[j]", "sun/nio/ch/FileChannelImpl.write_[j]");
    assertEquals(Component.GATLING, FrameClassifier.of(gatlingWrites));
    List<String> dubboWakes = List.of("java/lang/Thread.run_[0]",
        "org/apache/dubbo/common/threadpool/ThreadlessExecutor.execute_[j]", "java/util/concurrent/locks/LockSupport.unpark_[i]",
        "jdk/internal/misc/Unsafe.unpark_[j]", "Unsafe_Unpark", "___pthread_cond_signal", "__x64_sys_futex_[k]");
    assertEquals(Component.LOCKS, FrameClassifier.of(dubboWakes), "a park's or unpark's system call is the hand-off's");
  }

  @Test
  void aThreadThatRunsGatlingsActorsIsGatlingsWhileItWaitsAndTheFlameGraphDropsThreads() throws IOException {
    List<String[]> stacks = recorded();
    String idle = stacks.stream().filter(s -> s[0].equals("LOCKS") && s[1].contains("ThreadPoolExecutor.getTask"))
        .findFirst().orElseThrow()[1];
    String writes = stacks.stream().filter(s -> s[1].contains("LogFileDataWriter")).findFirst().orElseThrow()[1];
    String collapsed = "[pool-1-thread-1 tid=7];" + idle + " 5\n"
        + "[pool-1-thread-1 tid=7];" + writes + " 2\n"
        + "[pool-2-thread-1 tid=9];" + idle + " 3\n";
    Breakdown b = Breakdown.ofCollapsed(collapsed);
    assertEquals(7, b.samples(Component.GATLING), "Gatling's actor thread: its writes and its waits");
    assertEquals(3, b.samples(Component.LOCKS), "another pool's thread waiting is a hand-off");
    assertEquals(idle + " 5\n" + writes + " 2\n" + idle + " 3\n", Breakdown.withoutThreads(collapsed));
    assertEquals(b.total(), Breakdown.ofCollapsed(Breakdown.withoutThreads(collapsed)).total());
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
