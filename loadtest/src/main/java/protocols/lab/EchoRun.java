package protocols.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import protocols.load.Faults;
import protocols.rpc.Errors;
import protocols.rpc.HostPort;
import protocols.rpc.Registry;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcProtocol;
import protocols.rpc.Tls;

/**
 * One framework in a run: its server (embedded in its own JVM unless a target is given), checked by a
 * real echo call, its protocol as the -D parameters configure it, and the faults injected into its
 * server. Any bad input ends the JVM here with one line on stderr and exit code 1, before Gatling
 * starts a user. Its levels are {@link EchoLevels}.
 */
public final class EchoRun {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
  /**
   * A TLS probe's: a cold JVM's first TLS call (the provider's classes, the handshake's crypto, all
   * interpreted) took 7-12 s here on two busy cores, Dubbo's most; in a CI run with two ITs at once a
   * cold Dubbo provider left the first request unanswered for 17.3 s after its handshake. Only a first
   * call that does not come waits this long: a refused certificate or handshake fails at once.
   */
  private static final Duration TLS_PROBE_TIMEOUT = Duration.ofSeconds(40);

  private final RpcFramework<?, ?> framework;
  /** Its name in a run: the framework's, and how it finds its providers when the run compares that. */
  private final String name;
  private final LoadParams params;
  private final Deployment deployment;
  private final Endpoints endpoints;
  private final Faults faults;
  private final LabRun run;

  private final long firstCallMillis;
  private final TlsMode tlsMode;
  /** The -D options a client in another JVM (the plain driver) needs to speak TLS to these servers as this run does. */
  private final List<String> tlsOptions;

  private EchoRun(RpcFramework<?, ?> framework, String name, LoadParams params, Deployment deployment,
                  Endpoints endpoints, LabRun run, long firstCallMillis, TlsMode tls, List<String> tlsOptions) {
    this.framework = framework;
    this.name = name;
    this.firstCallMillis = firstCallMillis;
    this.tlsMode = tls;
    this.tlsOptions = List.copyOf(tlsOptions);
    this.params = params;
    this.deployment = deployment;
    this.endpoints = endpoints;
    this.run = run;
    this.faults = new Faults(params.faults(), deployment == null ? on -> {
      throw new IllegalStateException("no embedded server");
    } : deployment, !params.faultsInLevel(), run.faults());
    run.started(endpoints, firstCallMillis, deployment == null ? null : deployment::served, tls,
        deployment == null ? Optional.empty() : deployment.serverSettings());
    if (deployment != null) {
      run.ownsServers(name, deployment::pids, deployment::providerPids);
    }
  }

  /**
   * Starts the framework's embedded server or, when {@code targetParam} (e.g. {@code target}) is
   * given, checks that the target accepts connections; either way one real echo call must succeed.
   */
  public static EchoRun start(RpcFramework<?, ?> framework, LoadParams params, String targetParam, LabRun run) {
    return start(framework, framework.name(), params, targetParam, run);
  }

  /** The same under {@code name}: one of a shootout's variants ({@link Trials#delayVariant}). */
  public static EchoRun start(RpcFramework<?, ?> framework, String name, LoadParams params, String targetParam,
                              LabRun run) {
    return orExit(() -> start(framework, name, Deployment.Plan.of(params), params, targetParam, run, false,
        params.tls().mode()));
  }

  /**
   * The same in TLS mode {@code tls}, named for a shootout that compares TLS modes: {@code grpc},
   * {@code grpc tls}, {@code grpc mutual tls}. With {@code warmClasses} its first call is timed on a
   * second fresh client, so that no mode compared pays for loading the framework's classes.
   */
  public static EchoRun start(RpcFramework<?, ?> framework, TlsMode tls, LoadParams params, String targetParam,
                              LabRun run, boolean warmClasses) {
    return orExit(() -> start(framework, framework.name() + (tls.on() ? " " + tls.label() : ""),
        Deployment.Plan.of(params), params, targetParam, run, warmClasses, tls));
  }

  /**
   * The framework's providers as -Dproviders asks, called directly or found through its own registry
   * (the one -Dregistry names if it speaks it, else one the lab starts), named for the comparison:
   * {@code dubbo}, {@code dubbo via zookeeper}. Its first call is timed on a second fresh client, so
   * that neither way pays for loading the framework's classes in this JVM.
   */
  public static EchoRun start(RpcFramework<?, ?> framework, Discovery discovery, LoadParams params,
                              String targetParam, LabRun run) {
    return orExit(() -> {
      Deployment.Plan plan = Deployment.Plan.of(params);
      if (discovery == Discovery.DIRECT) {
        return start(framework, framework.name(), plan.direct(), params, targetParam, run, true, params.tls().mode());
      }
      Registry.Kind kind = registryOf(framework, params).orElseThrow(() -> new IllegalArgumentException(
          "-Ddiscovery=registry: " + framework.name() + " has no registry of its own"));
      return start(framework, framework.name() + " via " + kind.scheme(), plan.through(kind), params, targetParam, run,
          true, params.tls().mode());
    });
  }

  /** The registry {@code framework} is found through: the one -Dregistry names if it speaks it, else its first. */
  public static Optional<Registry.Kind> registryOf(RpcFramework<?, ?> framework, LoadParams params) {
    Set<Registry.Kind> spoken = framework.protocol(params).registries();
    Optional<Registry.Kind> asked = Deployment.Plan.of(params).registryKind().filter(spoken::contains);
    return asked.isPresent() ? asked : spoken.stream().sorted().findFirst();
  }

  /** @param warmClasses time the first call of a second fresh client, the framework's classes loaded by a first */
  private static EchoRun start(RpcFramework<?, ?> framework, String name, Deployment.Plan plan, LoadParams params,
                               String targetParam, LabRun run, boolean warmClasses, TlsMode tlsMode) {
    List<String> args = new ArrayList<>(framework.serverArgs(params)); // checks the framework's own -D parameters
    TlsSettings tlsSettings = params.tls();
    Tls tls = null;
    List<String> tlsOptions = new ArrayList<>(List.of("-Dtls=" + tlsMode.value()));
    if (tlsMode.on()) {
      if (params.target(targetParam).isPresent()) {
        tls = tlsSettings.forTarget(tlsMode);
      } else {
        if (tlsSettings.ownFiles()) {
          throw new IllegalArgumentException("-Dtls.ca, -Dtls.cert, -Dtls.key, -Dtls.keyStore and -Dtls.serverName are"
              + " for a server of yours (-D" + targetParam + "); the lab makes a throwaway CA for its own servers");
        }
        TlsSettings.Embedded material = TlsSettings.forEmbedded(tlsMode, tlsSettings.provider(), run.tlsMaterial());
        args.addAll(material.serverArgs());
        tls = material.client();
        tlsOptions.addAll(material.clientOptions());
        System.out.println(name + ": " + tlsMode.label() + " with a throwaway CA and certificates for 127.0.0.1 (kept"
            + " in the run's folder, tls/)");
      }
      RpcProtocol<?, ?> speaking = framework.protocol(params).tls(tls); // a framework without TLS ends here
      speaking.beforeTlsClients(); // the shootout made every framework's before any client
      System.out.println(name + ": TLS on " + speaking.tlsImplementation());
    }
    if (params.target(targetParam).isPresent()) {
      if (!plan.equals(Deployment.Plan.ONE_DIRECT)) {
        throw new IllegalArgumentException("-Dproviders and -Dregistry start the lab's own providers; leave out -D"
            + targetParam);
      }
      if (!params.faults().isEmpty()) {
        throw new IllegalArgumentException("-Dfaults acts on the embedded server; leave out -D" + targetParam);
      }
      if (params.serverDelayUs().isPresent()) {
        throw new IllegalArgumentException("-DserverDelayUs sets the embedded server's --delay-us; leave out -D"
            + targetParam + ", or start your server with --delay-us");
      }
      HostPort target = params.target(targetParam).get();
      Deployment.checkReachable(target, "the " + framework.name() + " server", targetParam);
      Endpoints endpoints = Endpoints.direct(target).withTls(tls);
      long firstCall = probe(framework, params, endpoints, "-D" + targetParam);
      return new EchoRun(framework, name, params, null, endpoints, run, firstCall, tlsMode,
          params.asJvmOptions(TlsSettings.FILES));
    }
    plan.registryKind().ifPresent(kind -> {
      Set<Registry.Kind> spoken = framework.protocol(params).registries();
      if (!spoken.contains(kind)) {
        throw new IllegalArgumentException("-Dregistry=" + kind.scheme() + ": " + framework.name() + " has no "
            + kind.scheme() + " registry" + (spoken.isEmpty()
            ? "; -Dproviders alone spreads its calls over several providers" : ""));
      }
    });
    Deployment deployment = Deployment.start(plan, framework.name(), framework.serverMainClass(), args,
        run::nextServerMetricsPort, run.pinning().map(CpuPinning::serverLauncher).orElse(List.of()));
    run.pinning().ifPresent(p -> System.out.println(name + ": " + p.describe() + "; the kernel allows the injector "
        + CpuPinning.allowed(ProcessHandle.current().pid()).orElse("?") + ", the servers " + deployment.pids().stream()
        .sorted().map(pid -> CpuPinning.allowed(pid).orElse("?")).distinct().toList()));
    Endpoints endpoints = new Endpoints(deployment.addresses(), deployment.registry().orElse(null), tls);
    long firstCall;
    try {
      deployment.check(params.faults());
      String source = endpoints.deployed() ? "embedded, " + endpoints : "embedded";
      if (warmClasses) {
        probe(framework, params, endpoints, source);
      }
      firstCall = probe(framework, params, endpoints, source);
    } catch (IllegalStateException | IllegalArgumentException e) {
      deployment.close();
      throw e;
    }
    return new EchoRun(framework, name, params, deployment, endpoints, run, firstCall, tlsMode, tlsOptions);
  }

  /**
   * One real echo before the first level: accepting TCP proves nothing (a server of another framework
   * accepts too), so a run against a wrong or dead server ends here with one line, not with levels of KOs.
   */
  public static <C extends RpcClient, R> long probe(RpcFramework<C, R> framework, LoadParams params, HostPort target,
                                                    String source) {
    return probe(framework, params, Endpoints.direct(target), source);
  }

  /**
   * The same through {@code endpoints}: the registry, or one of several providers, must answer.
   *
   * @return the first OK call of a fresh client, in ms: from before the client is made (its start, the
   *     connection, a TLS handshake) to the reply's arrival, not counting the client's closing
   */
  public static <C extends RpcClient, R> long probe(RpcFramework<C, R> framework, LoadParams params, Endpoints target,
                                             String source) {
    Duration least = target.tls() == null ? PROBE_TIMEOUT : TLS_PROBE_TIMEOUT;
    Duration timeout = params.timeout().compareTo(least) > 0 ? params.timeout() : least;
    R order = framework.order(1, params);
    R reply = null;
    String limit = null;
    // Over TLS, in a mode the framework can encrypt (Thrift's blocking client only); else its async API.
    InvocationMode mode = target.tls() == null || framework.protocol(params).tlsModes().contains(InvocationMode.ASYNC)
        ? InvocationMode.ASYNC : InvocationMode.SYNC;
    long start = System.nanoTime();
    long replied = 0;
    try (C client = framework.newClient(params, target, mode, timeout, null)) {
      try {
        reply = mode == InvocationMode.SYNC ? framework.echo(client).callSync(client, order, timeout.toMillis())
            : framework.echo(client).callAsync(client, order).toCompletableFuture()
            .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        replied = System.nanoTime();
      } catch (ExecutionException | RuntimeException e) {
        limit = client.sizeLimit(Errors.unwrap(e), order);
        if (limit == null) {
          throw e;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while probing the " + framework.name() + " server at " + target);
    } catch (Exception | LinkageError e) {
      Throwable cause = e instanceof TimeoutException ? e : Errors.unwrap(e);
      String said = cause instanceof TimeoutException ? "no reply within " + timeout.toMillis() + " ms"
          : TlsErrors.withoutUrl(Errors.rootMessage(cause));
      String why = target.tls() == null ? said + TlsErrors.plaintextHint(cause)
          : (target.targets().size() > 1 || target.registry() != null ? TlsErrors.explain(cause)
          : TlsErrors.explain(cause, target.targets().get(0), target.tls(), framework.protocol(params).checksServerName()))
          .orElse(said);
      throw new IllegalStateException(target.viaRegistry().map(r -> "no " + framework.name() + " echo call through "
          + r + " (" + source + "): " + why).orElse("the server at " + target + " (" + source + ") does not answer a "
          + framework.name() + " echo call: " + why));
    }
    if (limit != null) {
      throw new IllegalStateException("the first " + framework.name() + " echo call to " + target + " (" + source
          + ") failed: " + limit);
    }
    if (!order.equals(reply)) {
      throw new IllegalStateException("the server at " + target + " (" + source + ") answered a " + framework.name()
          + " echo call with a different order: it is not an echo server of this contract");
    }
    return (replied - start) / 1_000_000;
  }

  /** Runs {@code step}; an {@link IllegalArgumentException} or {@link IllegalStateException} ends the JVM with one line (exit 1). */
  public static <T> T orExit(Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw ExitStatus.exitNow(e.getMessage(), e);
    }
  }

  public RpcFramework<?, ?> framework() {
    return framework;
  }

  /** Its name in the run's request names and comparison: {@code dubbo}, or {@code dubbo via zookeeper}. */
  public String name() {
    return name;
  }

  /** What a client in another JVM (the plain driver) needs to speak to these servers as this run does. */
  public List<String> tlsOptions() {
    return tlsOptions;
  }

  /** Plaintext, TLS or mutual TLS. */
  public TlsMode tlsMode() {
    return tlsMode;
  }

  /** How long the probe's fresh client took to its first OK echo (its start, discovery and connection). */
  public long firstCallMillis() {
    return firstCallMillis;
  }

  public LoadParams params() {
    return params;
  }

  /** The one server's address: the first provider's when there are several. */
  public HostPort target() {
    return endpoints.targets().get(0);
  }

  /** Where the client finds the servers: one, several, or a registry. */
  public Endpoints endpoints() {
    return endpoints;
  }

  public LabRun run() {
    return run;
  }

  Faults faults() {
    return faults;
  }

  /**
   * The one mode of a run of {@code framework} alone: -Dmode's; over TLS, when -Dmode is not given and
   * the framework cannot encrypt async calls (Thrift), sync, said in one line; one line and exit 1
   * when -Dmode asks for a mode it cannot encrypt.
   */
  public static InvocationMode modeOf(RpcFramework<?, ?> framework, LoadParams params) {
    return orExit(() -> {
      InvocationMode mode = params.mode();
      Set<InvocationMode> can = framework.protocol(params).tlsModes();
      if (!params.tls().mode().on() || can.contains(mode)) {
        return mode;
      }
      if (params.optional("mode").isEmpty() && can.contains(InvocationMode.SYNC)) {
        System.out.println(framework.name() + ": over TLS in sync mode, the only one its client can encrypt");
        return InvocationMode.SYNC;
      }
      throw new IllegalArgumentException("-Dtls with -Dmode=" + mode.label() + ": " + framework.name()
          + "'s client cannot encrypt " + mode.label() + " calls" + (can.isEmpty() ? " (it has no TLS here)"
          : "; it can in " + String.join(", ", can.stream().map(InvocationMode::label).sorted().toList()) + " mode"));
    });
  }

  /**
   * The modes of {@code asked} this run's client can make calls in: all of them, but over TLS only
   * those its framework can encrypt (Thrift's: its blocking client, sync).
   */
  public List<InvocationMode> modesOf(List<InvocationMode> asked) {
    if (endpoints.tls() == null) {
      return asked;
    }
    Set<InvocationMode> can = framework.protocol(params).tlsModes();
    return asked.stream().filter(can::contains).toList();
  }

  /** The modes its framework can encrypt calls in. */
  public Set<InvocationMode> tlsModes() {
    return framework.protocol(params).tlsModes();
  }

  /** What the embedded server says it runs; empty against a target, or when it says nothing. */
  public Optional<String> serverSettings() {
    return deployment == null ? Optional.empty() : deployment.serverSettings();
  }

  /** The framework's protocol with the shared -D parameters, the target and {@code mode} applied. */
  public RpcProtocol<?, ?> protocol(InvocationMode mode) {
    return orExit(() -> framework.configured(params, endpoints, mode));
  }

  /** The levels of this framework in {@code mode}; {@code framework} names them in a run of several, else null. */
  public EchoLevels levels(String framework, InvocationMode mode) {
    return new EchoLevels(this, framework, mode);
  }

  /**
   * A fresh embedded server (a new process on the same address), so that the next driver finds it as
   * the previous one did; nothing with -Dtarget.
   */
  public void freshServer() {
    if (deployment != null) {
      deployment.restartProviders();
    }
  }

  /** Cancels the faults still to come, then stops the embedded providers and registry, if this run started them. */
  public void stop() {
    faults.cancel();
    if (deployment != null) {
      deployment.close();
    }
  }
}
