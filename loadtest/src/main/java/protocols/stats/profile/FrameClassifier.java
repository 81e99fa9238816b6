package protocols.stats.profile;

import java.util.List;
import java.util.Map;

/**
 * Which {@link Component} a sampled stack belongs to: the one table that says it. A kernel frame at the
 * top of the stack is the kernel's, or the hand-off's when it is a park or an unpark's system call;
 * else the innermost frame the table knows decides, walking from the top of the stack towards its
 * root: the JDK's collections, strings and lambdas, the JVM's runtime stubs and libc pass the sample
 * on to their caller, so a {@code HashMap.get} inside protobuf is serialization and one inside the lab
 * is the lab. Time in the kernel, a hand-off or the JDK's I/O that the harness asked for (Gatling's
 * statistics waking their writer threads, their file writes) is the harness's: the innermost frame
 * that says whose it is decides. A stack of a VM thread (compiler, GC workers) is the VM's wherever
 * it is.
 */
public final class FrameClassifier {
  private FrameClassifier() {}

  /** A frame's name starting with the key is the value's; the first match in this order wins. */
  static final List<Map.Entry<String, Component>> RULES = List.of(
      // Serialization first: some of it lives inside the frameworks' packages.
      rule("com.google.protobuf.", Component.SERIALIZATION),
      rule("io.grpc.protobuf.", Component.SERIALIZATION),
      rule("contract.grpc.", Component.SERIALIZATION), // the Order's generated protobuf code
      rule("contract.thrift.Order", Component.SERIALIZATION), // the Order's generated read and write
      rule("contract.zeroc.Order", Component.SERIALIZATION),
      rule("contract.pojo.", Component.SERIALIZATION),
      rule("contract.netty.EchoFrames", Component.SERIALIZATION), // the ceiling's Kryo frames
      rule("contract.dubbo.GuardedCodec", Component.SERIALIZATION),
      rule("com.alibaba.com.caucho.hessian.", Component.SERIALIZATION),
      rule("com.alibaba.fastjson", Component.SERIALIZATION),
      rule("org.apache.dubbo.common.serialize.", Component.SERIALIZATION),
      rule("org.apache.dubbo.rpc.protocol.dubbo.DecodeableRpc", Component.SERIALIZATION),
      rule("org.apache.dubbo.rpc.protocol.dubbo.DubboCodec", Component.SERIALIZATION),
      rule("org.apache.dubbo.remoting.exchange.codec.", Component.SERIALIZATION),
      rule("org.apache.dubbo.remoting.telnet.codec.", Component.SERIALIZATION),
      rule("org.apache.dubbo.rpc.protocol.tri.TripleCustomerProtocolWapper", Component.SERIALIZATION),
      rule("org.apache.dubbo.rpc.model.WrapperUnPackMethodDescriptor", Component.SERIALIZATION),
      rule("org.apache.dubbo.rpc.model.PackableMethod", Component.SERIALIZATION),
      rule("com.esotericsoftware.", Component.SERIALIZATION),
      rule("org.objenesis.", Component.SERIALIZATION),
      rule("org.apache.thrift.protocol.", Component.SERIALIZATION),
      rule("com.zeroc.Ice.InputStream", Component.SERIALIZATION),
      rule("com.zeroc.Ice.OutputStream", Component.SERIALIZATION),
      rule("com.fasterxml.jackson.", Component.SERIALIZATION),
      // Transports: Netty, and each framework's layer over it or over NIO.
      rule("io.netty.", Component.TRANSPORT),
      rule("io.grpc.netty.", Component.TRANSPORT),
      rule("org.apache.dubbo.remoting.transport.", Component.TRANSPORT),
      rule("org.apache.dubbo.remoting.api.", Component.TRANSPORT),
      rule("org.apache.dubbo.rpc.protocol.tri.transport.", Component.TRANSPORT),
      rule("org.apache.thrift.transport.", Component.TRANSPORT),
      rule("org.apache.thrift.async.TAsyncClientManager", Component.TRANSPORT),
      rule("org.apache.thrift.server.TNonblockingServer", Component.TRANSPORT),
      rule("org.apache.thrift.server.AbstractNonblockingServer", Component.TRANSPORT),
      rule("com.zeroc.IceInternal.TcpTransceiver", Component.TRANSPORT),
      rule("com.zeroc.IceInternal.StreamSocket", Component.TRANSPORT),
      rule("com.zeroc.IceInternal.Selector", Component.TRANSPORT),
      rule("com.zeroc.IceInternal.Network", Component.TRANSPORT),
      rule("com.zeroc.IceInternal.SSL", Component.TRANSPORT),
      rule("com.zeroc.IceSSL.", Component.TRANSPORT),
      // The frameworks' own code and the servers'.
      rule("org.apache.dubbo.", Component.FRAMEWORK),
      rule("io.grpc.", Component.FRAMEWORK),
      rule("org.apache.thrift.", Component.FRAMEWORK),
      rule("com.zeroc.", Component.FRAMEWORK),
      rule("contract.", Component.FRAMEWORK),
      rule("servers.", Component.FRAMEWORK),
      // The harness.
      rule("io.gatling.", Component.GATLING),
      rule("scala.", Component.GATLING),
      rule("akka.", Component.GATLING),
      rule("protocols.", Component.LAB),
      rule("org.HdrHistogram.", Component.LAB),
      rule("io.prometheus.", Component.LAB),
      // The JDK's I/O and hand-offs.
      rule("sun.nio.", Component.JDK_IO),
      rule("java.nio.", Component.JDK_IO),
      rule("java.net.", Component.JDK_IO),
      rule("sun.net.", Component.JDK_IO),
      rule("sun.security.ssl.", Component.TRANSPORT),
      rule("java.util.concurrent.locks.", Component.LOCKS),
      rule("jdk.internal.misc.Unsafe.park", Component.LOCKS),
      rule("jdk.internal.misc.Unsafe.unpark", Component.LOCKS),
      rule("java.lang.Object.wait", Component.LOCKS),
      rule("java.lang.Object.notify", Component.LOCKS),
      rule("Unsafe_Park", Component.LOCKS),
      rule("Unsafe_Unpark", Component.LOCKS),
      rule("Parker::", Component.LOCKS),
      rule("ObjectMonitor::", Component.LOCKS),
      rule("ObjectSynchronizer::", Component.LOCKS),
      // The VM at work inside a Java thread: allocation's slow path, safepoints, deoptimization.
      rule("G1", Component.GC_JIT),
      rule("CollectedHeap::", Component.GC_JIT),
      rule("MemAllocator::", Component.GC_JIT),
      rule("SafepointSynchronize::", Component.GC_JIT),
      rule("Deoptimization::", Component.GC_JIT),
      rule("CompileBroker::", Component.GC_JIT),
      rule("CompilationPolicy::", Component.GC_JIT));

  /** Frames of threads that run no Java: anywhere in a stack, they make it the VM's. */
  static final List<String> VM_THREADS = List.of("CompileBroker::compiler_thread_loop", "GangWorker::",
      "WorkerThread::", "G1ConcurrentRefineThread::", "ConcurrentGCThread::", "VMThread::", "G1ServiceThread::",
      "WatcherThread::", "MonitorDeflationThread::", "ServiceThread::");

  private static Map.Entry<String, Component> rule(String prefix, Component c) {
    return Map.entry(prefix, c);
  }

  /**
   * The component of a stack given root first, as async-profiler's collapsed format lists it (Java
   * frames with {@code /} or {@code .} between packages, a {@code _[k]} or {@code _[j]}-style suffix
   * for the frame's kind).
   */
  public static Component of(List<String> rootFirst) {
    if (rootFirst.isEmpty()) {
      return Component.OTHER;
    }
    for (String f : rootFirst) {
      for (String vm : VM_THREADS) {
        if (f.startsWith(vm)) {
          return Component.GC_JIT;
        }
      }
    }
    Component how = innermost(rootFirst);
    if (how == Component.KERNEL || how == Component.LOCKS || how == Component.JDK_IO) {
      Component whose = owner(rootFirst);
      if (whose != null && whose.harness()) {
        return whose;
      }
    }
    return how;
  }

  /**
   * The component of a stack of one of Gatling's actor threads (those that write its statistics):
   * as {@link #of}, but a sample no owner's frame claims (the thread waiting for its next message, and
   * the kernel's part of that) is Gatling's, as those threads wait only for Gatling.
   */
  public static Component ofGatlingActorThread(List<String> rootFirst) {
    Component c = of(rootFirst);
    return owner(rootFirst) == null && c != Component.GC_JIT ? Component.GATLING : c;
  }

  /** Whether a stack shows its thread running one of Gatling's actors: that thread is Gatling's. */
  public static boolean runsGatlingActor(List<String> rootFirst) {
    for (String f : rootFirst) {
      if (normalized(f).startsWith(GATLING_ACTOR_RUN)) {
        return true;
      }
    }
    return false;
  }

  private static final String GATLING_ACTOR_RUN = "io.gatling.core.actor.AtomicRunnableActorRef.run";

  /** How the time was spent: the kernel's (or a hand-off's) at a kernel top, else the innermost known frame's. */
  private static Component innermost(List<String> rootFirst) {
    int i = rootFirst.size() - 1;
    if (rootFirst.get(i).endsWith("_[k]")) {
      while (i >= 0 && (rootFirst.get(i).endsWith("_[k]") || ofFrame(rootFirst.get(i)) == null)) {
        i--;
      }
      return i >= 0 && ofFrame(rootFirst.get(i)) == Component.LOCKS ? Component.LOCKS : Component.KERNEL;
    }
    for (; i >= 0; i--) {
      Component c = ofFrame(rootFirst.get(i));
      if (c != null) {
        return c;
      }
    }
    return Component.OTHER;
  }

  /**
   * Whose work a stack is: the innermost frame naming an owner (a framework, its transport or
   * serialization, Gatling, the lab), past the kernel, hand-offs, the JDK's I/O and the VM; null if none does.
   */
  private static Component owner(List<String> rootFirst) {
    for (int i = rootFirst.size() - 1; i >= 0; i--) {
      String f = rootFirst.get(i);
      Component c = f.endsWith("_[k]") ? null : ofFrame(f);
      if (c != null && c != Component.LOCKS && c != Component.JDK_IO && c != Component.GC_JIT) {
        return c;
      }
    }
    return null;
  }

  /** A frame's component, or null when it passes the sample on to its caller. */
  static Component ofFrame(String frame) {
    String name = normalized(frame);
    for (Map.Entry<String, Component> r : RULES) {
      if (name.startsWith(r.getKey())) {
        return r.getValue();
      }
    }
    return null;
  }

  /** {@code io/netty/Foo.bar_[j]} → {@code io.netty.Foo.bar}. */
  static String normalized(String frame) {
    String f = frame;
    if (f.length() > 4 && f.endsWith("]") && f.charAt(f.length() - 4) == '_' && f.charAt(f.length() - 3) == '[') {
      f = f.substring(0, f.length() - 4);
    }
    return f.indexOf("::") >= 0 ? f : f.replace('/', '.');
  }
}
