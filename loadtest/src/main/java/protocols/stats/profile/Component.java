package protocols.stats.profile;

/** Where a profile's sample spent its time, as the breakdown names it; see {@link FrameClassifier}. */
public enum Component {
  FRAMEWORK("framework", "the framework's own code (calls, dispatch, its executors' work)"),
  SERIALIZATION("serialization", "encoding and decoding the message: protobuf, hessian2, Kryo, Thrift's protocols,"
      + " Ice's streams, JSON"),
  TRANSPORT("Netty and transport", "Netty, and each framework's own transport layer over it or over NIO"),
  JDK_IO("JDK I/O", "the JDK's sockets and selectors (sun.nio.ch, java.nio)"),
  LOCKS("locks and hand-offs", "parking, waking and monitors: a thread handing work to another"),
  KERNEL("kernel", "system calls, the network stack and page faults (kernel frames)"),
  GATLING("Gatling", "Gatling's engine: actions, sessions, its statistics"),
  LAB("the lab", "the lab's plugin: recording, checks, live metrics, the hop to the virtual user"),
  GC_JIT("GC, JIT and VM", "garbage collection, compilation and the VM's own threads"),
  OTHER("other", "everything else: the JDK's collections and strings, samples with no known frame");

  private final String label;
  private final String meaning;

  Component(String label, String meaning) {
    this.label = label;
    this.meaning = meaning;
  }

  /** The name pages and tables show. */
  public String label() {
    return label;
  }

  /** What it covers, in a sentence fragment. */
  public String meaning() {
    return meaning;
  }

  /** Whether it is the harness's own cost (the injector side only has such samples). */
  public boolean harness() {
    return this == GATLING || this == LAB;
  }
}
