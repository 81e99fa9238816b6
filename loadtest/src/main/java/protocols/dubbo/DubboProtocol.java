package protocols.dubbo;

import protocols.rpc.ClientPath;
import contract.dubbo.DubboSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/** {@code dubbo.target("127.0.0.1", 20880).serialization("kryo")...}: immutable. */
public final class DubboProtocol extends DubboFamilyProtocol<DubboProtocol> {
  public static final RpcProtocolKey<DubboProtocol> KEY = new RpcProtocolKey<>(DubboProtocol.class);

  /** Dubbo's own payload limit (URL parameter payload), also the echo server's --payload default. */
  static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;
  /** Dubbo's load balancers (its LoadBalance extensions). */
  static final List<String> LOAD_BALANCERS = List.of("random", "roundrobin", "leastactive", "shortestresponse",
      "consistenthash");
  /** Dubbo's cluster strategies (its Cluster extensions) that make one call. */
  static final List<String> CLUSTERS = List.of("failover", "failfast", "failsafe", "failback", "available");

  private final String serialization;
  private final Cluster cluster;
  private final IoThreads io;

  /** Whose threads do the consumer's I/O: -Ddubbo.client. */
  public enum IoThreads {
    /** Dubbo's own: its shared NettyClientWorker threads, replies through its consumer pool; the reference. */
    OWN("own"),
    /** A connection per Gatling loop, each user's calls on its loop's, replies completed there (dispatcher=direct). */
    LOOPS("loops");

    private final String label;

    IoThreads(String label) {
      this.label = label;
    }

    /** Its -Ddubbo.client value. */
    public String label() {
      return label;
    }

    /** The threads named {@code label}. */
    public static IoThreads of(String label) {
      for (IoThreads t : values()) {
        if (t.label.equals(label)) {
          return t;
        }
      }
      throw new IllegalArgumentException("dubbo client must be own or loops, got '" + label + "'");
    }
  }

  /**
   * How a reference spreads calls over several providers: Dubbo's own load balancer and cluster
   * strategy, and the retries of a failover cluster (0 by default: a retry would hide a failure and
   * time two calls as one).
   */
  record Cluster(String loadbalance, String strategy, int retries) {
    static final Cluster DEFAULT = new Cluster("random", "failover", 0);

    /** As the run's protocol table says it. */
    String describe(RpcSettings settings) {
      return settings.viaRegistry().isPresent() || settings.targets().size() > 1
          ? "Dubbo's own: " + strategy + " cluster, " + loadbalance + " load balancer, " + retries + " retries"
          : "one server";
    }
  }

  DubboProtocol(RpcSettings settings, String serialization) {
    this(settings, serialization, Cluster.DEFAULT, 0, IoThreads.OWN);
  }

  private DubboProtocol(RpcSettings settings, String serialization, Cluster cluster, int consumerThreads,
                        IoThreads io) {
    super(settings, new Spec<>(KEY, "dubbo", DEFAULT_PAYLOAD,
        s -> new DubboProtocol(s, serialization, cluster, consumerThreads, io),
        (p, loops) -> new DubboClient(p.settings(), serialization, p.maxMessageBytes(), cluster, consumerThreads,
            io == IoThreads.LOOPS ? loops : null)),
        consumerThreads);
    this.serialization = serialization;
    this.cluster = cluster;
    this.io = io;
  }

  /** Calls on Gatling's loops: -Ddubbo.client=loops, but not callback mode (Dubbo's notifying references). */
  private boolean onLoops() {
    return io == IoThreads.LOOPS && settings().mode() != InvocationMode.CALLBACK;
  }

  /** Whose threads do the consumer's I/O: Dubbo's own ({@link IoThreads#OWN}, the default) or Gatling's loops. */
  public DubboProtocol client(IoThreads threads) {
    return new DubboProtocol(settings(), serialization, cluster, consumerThreadCount(), threads);
  }

  /** hessian2 (Dubbo's default), kryo (the write-up's) or fastjson2; the server must use the same. */
  public DubboProtocol serialization(String name) {
    if (!DubboSerialization.SUPPORTED.contains(name)) {
      throw new IllegalArgumentException("Dubbo serialization must be one of "
          + String.join("|", DubboSerialization.SUPPORTED) + ", got '" + name + "'");
    }
    return new DubboProtocol(settings(), name, cluster, consumerThreadCount(), io);
  }

  /** Dubbo's load balancer over several providers: random (its default), roundrobin, leastactive, ... */
  public DubboProtocol loadbalance(String name) {
    return new DubboProtocol(settings(), serialization,
        new Cluster(oneOf("loadbalance", name, LOAD_BALANCERS), cluster.strategy(), cluster.retries()),
        consumerThreadCount(), io);
  }

  /** Dubbo's cluster strategy: failover (its default), failfast, failsafe, failback, available. */
  public DubboProtocol cluster(String name) {
    return new DubboProtocol(settings(), serialization,
        new Cluster(cluster.loadbalance(), oneOf("cluster", name, CLUSTERS), cluster.retries()),
        consumerThreadCount(), io);
  }

  /** Retries of a failover cluster on another provider (default 0: each call is timed once, as it went). */
  public DubboProtocol retries(int retries) {
    if (retries < 0 || retries > 10) {
      throw new IllegalArgumentException("Dubbo retries must be between 0 and 10, got " + retries);
    }
    return new DubboProtocol(settings(), serialization, new Cluster(cluster.loadbalance(), cluster.strategy(), retries),
        consumerThreadCount(), io);
  }

  @Override
  DubboProtocol withConsumerThreads(int threads) {
    return new DubboProtocol(settings(), serialization, cluster, threads, io);
  }

  private static String oneOf(String what, String name, List<String> allowed) {
    if (!allowed.contains(name)) {
      throw new IllegalArgumentException("Dubbo " + what + " must be one of " + String.join("|", allowed) + ", got '"
          + name + "'");
    }
    return name;
  }

  public String serialization() {
    return serialization;
  }

  @Override
  public ClientPath clientPath() {
    if (onLoops()) {
      return new ClientPath("one per loop and provider", "one per Gatling event loop and provider (Dubbo's client"
          + " on that loop, a reference per loop), each user on its loop's", 0, "the write on the user's own loop, its connection's; the reply read"
          + " and completed there (dispatcher=direct)");
    }
    return new ClientPath("one per provider", "one per provider, shared by every call (Dubbo's default), on Dubbo's own Netty threads", 3,
        "the write, from the user's loop to Dubbo's Netty thread; the reply, to the consumer's pool"
        + " (its default dispatcher); from there to the user's loop");
  }

  @Override
  public String balancing() {
    return cluster.describe(settings());
  }

  @Override
  public String callbackApi() {
    return "Dubbo's event notification: the blocking signature on a reference whose method is async with"
        + " onreturn/onthrow (async mode: the CompletableFuture signature; a request with no blocking"
        + " signature: that future's whenComplete)";
  }

  @Override
  public Map<String, Object> describe() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("serialization", serialization);
    d.put("client", io.label() + (onLoops() ? " (Dubbo's Netty client on Gatling's event loops)"
        : " (Dubbo's NettyClientWorker threads)" + (io == IoThreads.LOOPS ? ": callback mode's references, which"
        + " notify, stay on them" : "")));
    d.put("consumer pool", onLoops() ? "not used: replies complete on the loop that read them" : consumerPool());
    settings().viaRegistry().ifPresent(r -> d.put("discovery", "interface-level (Dubbo 2 style): providers register"
        + " their URLs under the interface, the consumer subscribes with migration step FORCE_INTERFACE"));
    return d;
  }
}
