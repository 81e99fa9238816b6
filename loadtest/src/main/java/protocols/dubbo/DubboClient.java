package protocols.dubbo;

import contract.dubbo.DubboSerialization;
import contract.dubbo.ExactAddressTransporter;
import contract.dubbo.TripleHost;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.dubbo.common.threadpool.manager.ExecutorRepository;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.MethodConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.remoting.TimeoutException;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.service.GenericService;
import protocols.rpc.GatlingLoops;
import protocols.rpc.InvocationMode;
import protocols.rpc.Registry;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcSettings;

/**
 * A Dubbo consumer: one reference per service the requests call, connected straight to the server or
 * servers, or finding its providers through a ZooKeeper registry.
 */
public final class DubboClient implements RpcClient {
  static {
    // Before Dubbo's first logger exists: route its logs to Gatling's logback (logback-test.xml),
    // instead of java.util.logging on the console.
    if (System.getProperty("dubbo.application.logger") == null) {
      System.setProperty("dubbo.application.logger", "slf4j");
    }
  }

  /** How long a reference waits to connect to its registry before it fails. */
  static final int REGISTRY_TIMEOUT_MILLIS = 5_000;
  private final DubboBootstrap bootstrap;

  private final RpcSettings settings;
  private final String serialization;
  private final int maxPayload;
  private final DubboProtocol.Cluster cluster;
  /** Triple instead of the dubbo protocol: protobuf stubs, so no serialization to choose. */
  private final boolean triple;
  /** The consumer's pool: 0 for Dubbo's cached one, else a fixed pool of this many threads. */
  private final int consumerThreads;
  /** One reference per service, version and group, made when a request is prepared. */
  private final Map<String, ReferenceConfig<?>> references = new ConcurrentHashMap<>();
  /** Per reference found through the registry: where, and at which addresses. */
  private final Map<String, String> found = new ConcurrentHashMap<>();
  /** Callback mode: the notifier of each notifying reference, by the reference's key. */
  private final Map<String, DubboNotifier> notifiers = new ConcurrentHashMap<>();
  /** PEM copies of a PKCS#12 identity (Dubbo takes file names), deleted when the client closes; else null. */
  private Path tlsFolder;
  /** -Ddubbo.client=loops: the loops a reference each lives on (see {@link GatlingLoopTransporter}); else null. */
  private final GatlingLoopTransporter.Loops loops;
  private final AtomicInteger turns = new AtomicInteger();

  DubboClient(RpcSettings settings, String serialization, int maxPayload, DubboProtocol.Cluster cluster,
              int consumerThreads, EventLoopGroup gatlingLoops) {
    this(settings, serialization, maxPayload, cluster, false, consumerThreads, gatlingLoops);
  }

  /** A consumer over Triple, calling the given servers directly. */
  static DubboClient triple(RpcSettings settings, int maxBody) {
    return triple(settings, maxBody, 0);
  }

  static DubboClient triple(RpcSettings settings, int maxBody, int consumerThreads) {
    return new DubboClient(settings, "", maxBody, DubboProtocol.Cluster.DEFAULT, true, consumerThreads, null);
  }

  private DubboClient(RpcSettings settings, String serialization, int maxPayload, DubboProtocol.Cluster cluster,
                      boolean triple, int consumerThreads, EventLoopGroup gatlingLoops) {
    this.triple = triple;
    this.loops = gatlingLoops == null ? null : GatlingLoopTransporter.Loops.of(gatlingLoops);
    this.consumerThreads = consumerThreads;
    this.settings = settings;
    this.cluster = cluster;
    this.serialization = serialization;
    this.maxPayload = maxPayload;
    DubboSerialization.secureKryo();
    ApplicationConfig application = new ApplicationConfig("gatling-dubbo-consumer");
    application.setQosEnable(false);
    application.setSerializeCheckStatus("STRICT");
    // When a connection drops, Dubbo waits this long (default 10 s, so past any call timeout) before
    // failing the calls still in flight on it; 0 fails them at once, as the other clients do.
    application.setShutwait("0");
    bootstrap = DubboBootstrap.newInstance();
    if (settings.tls() != null) {
      DubboTls.allowEnginesWithoutHost();
      try {
        tlsFolder = Files.createTempDirectory("dubbo-tls-");
      } catch (IOException e) {
        throw new IllegalStateException("no temporary folder for Dubbo's PEM files: " + e.getMessage(), e);
      }
      bootstrap.ssl(DubboTls.sslConfig(settings.tls(), tlsFolder));
    }
    bootstrap.application(application);
    if (loops != null) {
      bootstrap.getApplicationModel().getBeanFactory().registerBean(loops);
    }
    bootstrap.start();
  }

  /** A proxy of {@code service} on the target (made once, then shared); fails now if the server is not there. */
  <S> S reference(Class<S> service, String version, String group) {
    return service.cast(reference(service.getName(), version, group, "", r -> r.setInterface(service), -1));
  }

  /**
   * -Ddubbo.client=loops: a proxy of {@code service} per connection, connection i on Gatling's loop i
   * (modulo), as many as -Dconnections or else as the loops; empty on Dubbo's own threads.
   */
  <S> List<S> onLoops(Class<S> service, String version, String group) {
    if (loops == null) {
      return List.of();
    }
    int n = settings.connections() > 0 ? settings.connections() : loops.loops().length;
    List<S> proxies = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      proxies.add(service.cast(reference(service.getName(), version, group, ":loop" + i, r -> r.setInterface(service), i)));
    }
    return proxies;
  }

  /** Which of {@code n} proxies of {@link #onLoops} a call takes: the calling loop's own where it has one. */
  int proxyFor(int n) {
    return GatlingLoops.connectionFor(loops.loops(), n, turns);
  }

  /**
   * A caller of {@code service} whose method {@code method} is async with Dubbo's event notification
   * (callback mode): the call returns at once and the reference's notifier hears the reply
   * ({@code onreturn}) or the error ({@code onthrow}). One reference and notifier per method, shared.
   */
  synchronized <S> Notifying<S> notifying(Class<S> service, String version, String group, String method) {
    String kind = ":notify:" + method;
    DubboNotifier notifier = notifiers.computeIfAbsent(service.getName() + ":" + version + ":" + group + kind,
        k -> new DubboNotifier());
    S proxy = service.cast(reference(service.getName(), version, group, kind, r -> {
      r.setInterface(service);
      MethodConfig m = new MethodConfig();
      m.setName(method);
      m.setAsync(true);
      m.setOnreturn(notifier);
      m.setOnreturnMethod("onReturn");
      m.setOnthrow(notifier);
      m.setOnthrowMethod("onThrow");
      r.setMethods(List.of(m));
    }, -1));
    return new Notifying<>(notifier.caller(service, proxy), notifier);
  }

  /** A caller of a notifying reference and the notifier its replies go to. */
  record Notifying<S>(S caller, DubboNotifier notifier) {
  }

  /** Dubbo's generic proxy of the service named {@code serviceName}: no class of the user's needed. */
  GenericService generic(String serviceName, String version, String group) {
    return (GenericService) reference(serviceName, version, group, ":generic", r -> {
      r.setInterface(serviceName);
      r.setGeneric("true");
    }, -1);
  }

  /**
   * The methods the providers of a generic reference registered (Dubbo's {@code methods} parameter),
   * empty when none says (a direct target: its URL is the consumer's own).
   */
  java.util.Set<String> registeredMethods(String serviceName, String version, String group) {
    java.util.Set<String> methods = new java.util.TreeSet<>();
    invokers(references.get(serviceName + ":" + version + ":" + group + ":generic")).forEach(i -> methods.addAll(
        java.util.Arrays.asList(i.getUrl().getParameter("methods", new String[0]))));
    return methods;
  }

  /** The providers a reference calls, as its directory holds them (a registry's: with their registered URLs). */
  private static List<org.apache.dubbo.rpc.Invoker<?>> invokers(ReferenceConfig<?> reference) {
    if (reference != null && reference.getInvoker() instanceof org.apache.dubbo.rpc.cluster.ClusterInvoker<?> c
        && c.getDirectory() != null) {
      return List.copyOf(c.getDirectory().getAllInvokers());
    }
    return List.of();
  }

  @Override
  public List<String> providersFound() {
    return List.copyOf(new java.util.TreeSet<>(found.values()));
  }

  /** A call that could not reach a discovered provider: Dubbo's first sentence, then where the providers came from. */
  @Override
  public String failureLine(Throwable thrown) {
    Throwable error = DubboErrors.lostWhileSending(thrown);
    String line = protocols.rpc.Errors.oneLine(error);
    if (found.isEmpty() || !(error instanceof RpcException e) || !(e.isNetwork() || String.valueOf(e.getMessage())
        .contains("No provider available"))) {
      return line;
    }
    int sentence = line.indexOf(". ");
    return (sentence > 0 ? line.substring(0, sentence) : line) + " [" + String.join("; ", providersFound())
        + ": " + RegisteredProviders.UNREACHABLE_HINT + "]";
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private synchronized Object reference(String serviceName, String version, String group, String kind,
                                        java.util.function.Consumer<ReferenceConfig> setService, int loop) {
    String key = serviceName + ":" + version + ":" + group + kind;
    ReferenceConfig<?> existing = references.get(key);
    if (existing != null) {
      return existing.get();
    }
    ReferenceConfig reference = new ReferenceConfig<>(bootstrap.getApplicationModel().getDefaultModule());
    setService.accept(reference);
    if (!version.isEmpty()) {
      reference.setVersion(version);
    }
    if (!group.isEmpty()) {
      reference.setGroup(group);
    }
    // The consumer's serialization travels in the URL; prefer.serialization stops Dubbo 3 from
    // negotiating its own default (fastjson2) instead. client=exact keeps 127.0.0.1 as given.
    Map<String, String> parameters = new LinkedHashMap<>();
    if (!triple) {
      parameters.put("serialization", serialization);
      parameters.put("prefer.serialization", serialization);
      parameters.put("client", loop >= 0 ? GatlingLoopTransporter.NAME : ExactAddressTransporter.NAME);
      parameters.put("payload", Integer.toString(maxPayload));
      if (loop >= 0) {
        // Its own connection (connections=1 below: not shared), on loop `loop`; replies complete on it.
        parameters.put(GatlingLoopTransporter.LOOP_KEY, Integer.toString(loop));
        parameters.put("dispatcher", "direct");
      }
    }
    parameters.putAll(DubboConnectionSettings.of(settings));
    // The consumer's own side of the URL: a direct URL's pool parameters would be dropped as the provider's.
    Map<String, String> consumerSide = new LinkedHashMap<>(DubboConsumerPool.parameters(consumerThreads));
    if (settings.viaRegistry().isPresent()) {
      Registry registry = settings.viaRegistry().get();
      RegistryConfig config = new RegistryConfig(registry.toString());
      config.setTimeout(REGISTRY_TIMEOUT_MILLIS); // connecting to ZooKeeper; Dubbo's default is 30 s
      config.setRegister(false); // a consumer's own entry would carry the machine's address, not loopback
      reference.setRegistry(config);
      // Interface-level discovery, as the lab's providers register (and as Dubbo 2 did).
      parameters.put("migration.step", "FORCE_INTERFACE");
      if (triple) {
        reference.setProtocol("tri"); // only the service's Triple providers
      }
      parameters.putAll(consumerSide);
      reference.setParameters(parameters);
    } else {
      reference.setParameters(consumerSide);
      String query = String.join("&", parameters.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
      // Several providers called directly: Dubbo's own cluster over the listed URLs.
      reference.setUrl(String.join(";", settings.targets().stream()
          .map(t -> (triple ? "tri://" + TripleHost.exact(t.host()) + ":" + t.port() : "dubbo://" + t)
              + "/" + serviceName + "?" + query).toList()));
    }
    reference.setLoadbalance(cluster.loadbalance());
    reference.setCluster(cluster.strategy());
    reference.setTimeout((int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis()));
    reference.setRetries(cluster.retries()); // by default none: a retry would hide a failure and time two calls as one
    reference.setCheck(true); // fail when the request is prepared, not on the first call, if the server is not there
    if (loop >= 0) {
      reference.setConnections(1);
    } else if (settings.connections() > 0) {
      reference.setConnections(settings.connections());
    }
    Object proxy;
    try {
      proxy = reference.get();
    } catch (RuntimeException e) { // IllegalStateException: no provider; RuntimeException: no registry
      if (settings.viaRegistry().isPresent()) {
        // Not chained: Dubbo's message, the root cause, is the consumer's whole URL.
        Registry registry = settings.viaRegistry().get();
        if (String.valueOf(e.getMessage()).contains("No provider available")) {
          throw new IllegalStateException(RegisteredProviders.whyNone(registry, serviceName, triple, version, group,
              REGISTRY_TIMEOUT_MILLIS));
        }
        try {
          RegisteredProviders.read(registry, serviceName, REGISTRY_TIMEOUT_MILLIS);
        } catch (Exception unreadable) {
          throw new IllegalStateException(RegisteredProviders.unreadable(registry, serviceName, unreadable));
        }
      }
      throw e;
    }
    settings.viaRegistry().ifPresent(r -> {
      found.put(key, RegisteredProviders.found(r, serviceName, invokers(reference).stream()
          .map(i -> i.getUrl().getAddress()).distinct().toList()));
      System.out.println((triple ? "triple: " : "dubbo: ") + found.get(key));
    });
    if (triple) {
      awaitConnected(reference);
    }
    references.put(key, reference);
    return proxy;
  }

  /**
   * Triple connects in the background and fails a call made before it is up ("upstream ... is
   * unavailable"), where the dubbo protocol's check waits: wait for it here, up to the call timeout.
   */
  private void awaitConnected(ReferenceConfig<?> reference) {
    long deadline = System.nanoTime() + settings.timeoutMillis() * 1_000_000L;
    while (!reference.getInvoker().isAvailable() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * The pool Dubbo made for this consumer's replies, as it is: "fixed, 2 threads" or "cached, up to N
   * threads", read from Dubbo's executor repository; empty before a reference exists.
   */
  public Optional<String> consumerPool() {
    return references.values().stream().flatMap(r -> invokers(r).stream()).findFirst().map(i -> DubboConsumerPool.of(
        ExecutorRepository.getInstance(bootstrap.getApplicationModel()).getExecutor(i.getUrl())));
  }

  /** The run's invocation model: callback mode makes notifying references. */
  InvocationMode mode() {
    return settings.mode();
  }

  /** Over Triple: callback mode is the async path (no event notification on generated stubs). */
  boolean triple() {
    return triple;
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof TimeoutException || error instanceof RpcException e && e.isTimeout();
  }

  @Override
  public String sizeLimit(Throwable error, Object request) {
    return DubboErrors.sizeLimit(error, triple, maxPayload);
  }

  @Override
  public String errorCode(Throwable thrown) {
    return DubboErrors.errorCode(thrown);
  }

  @Override
  public void close() {
    references.values().forEach(ReferenceConfig::destroy);
    bootstrap.destroy();
    protocols.rpc.TempFolders.delete(tlsFolder);
  }
}
