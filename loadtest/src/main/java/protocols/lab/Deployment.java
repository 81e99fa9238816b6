package protocols.lab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import protocols.load.Faults;
import protocols.rpc.Errors;
import protocols.rpc.HostPort;
import protocols.rpc.Registry;

/**
 * A framework's servers as the lab runs them: one provider or several ({@code -Dproviders}), each an
 * {@link EmbeddedServer}, called directly or found through a registry ({@code -Dregistry}) that the
 * lab starts ({@link RegistryServer}) or that is already there. It says where the client finds them,
 * is what the faults act on, counts what each provider served, and stops providers, then the
 * registry, when the run ends.
 */
final class Deployment implements AutoCloseable, Faults.Targets {
  static final int MAX_PROVIDERS = 16;
  private static final int CONNECT_CHECK_MILLIS = 3_000;

  /**
   * What -Dproviders and -Dregistry ask for: how many providers, and the registry, if any: its kind,
   * and its address when one is already running (else the lab starts one).
   */
  record Plan(int providers, Registry.Kind registry, HostPort existingRegistry) {
    static final Plan ONE_DIRECT = new Plan(1, null, null);

    static Plan of(LoadParams params) {
      int providers = params.intParam("providers", 1, 1, MAX_PROVIDERS);
      String r = params.string("registry", "none");
      if (r.equals("none")) {
        return new Plan(providers, null, null);
      }
      if (r.contains("://")) {
        Registry existing = Registry.parse(r);
        return new Plan(providers, existing.kind(), existing.address());
      }
      try {
        return new Plan(providers, Registry.Kind.of(r), null);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("-Dregistry must be none, zookeeper, icegrid, or the address of a running"
            + " one (zookeeper://host:port, icegrid://host:port), got '" + r + "'");
      }
    }

    Optional<Registry.Kind> registryKind() {
      return Optional.ofNullable(registry);
    }

    /** The same providers called directly. */
    Plan direct() {
      return new Plan(providers, null, null);
    }

    /** The same providers through a {@code kind} registry: this plan's if it is one, else one the lab starts. */
    Plan through(Registry.Kind kind) {
      return kind == registry ? this : new Plan(providers, kind, null);
    }
  }

  private final RegistryServer started;
  private final Registry registry;
  private final List<EmbeddedServer> providers;
  /** Each provider's metrics port (--metrics-port), 0 where it serves none. */
  private final List<Integer> metricsPorts;

  private Deployment(RegistryServer started, Registry registry, List<EmbeddedServer> providers,
                     List<Integer> metricsPorts) {
    this.started = started;
    this.registry = registry;
    this.providers = List.copyOf(providers);
    this.metricsPorts = List.copyOf(metricsPorts);
  }

  /**
   * Starts what {@code plan} asks for: the registry first (unless it is there already), then the
   * providers, each told the registry's address. Fails in one line, leaving nothing running.
   */
  static Deployment start(Plan plan, String framework, String mainClass, List<String> serverArgs,
                          java.util.function.IntSupplier metricsPorts, List<String> launcher) {
    RegistryServer started = null;
    Registry registry = null;
    if (plan.registry() != null) {
      if (plan.existingRegistry() != null) {
        registry = new Registry(plan.registry(), plan.existingRegistry());
        checkReachable(plan.existingRegistry(), "the " + plan.registry().scheme() + " registry", "registry");
      } else {
        started = RegistryServer.start(plan.registry(), launcher);
        registry = started.registry();
      }
    }
    List<String> args = new ArrayList<>(serverArgs);
    if (registry != null) {
      args.addAll(List.of("--registry", registry.toString()));
    }
    List<EmbeddedServer> providers = new ArrayList<>();
    List<Integer> ports = new ArrayList<>();
    try {
      for (int i = 0; i < plan.providers(); i++) {
        int metricsPort = metricsPorts.getAsInt();
        List<String> own = new ArrayList<>(args);
        if (metricsPort > 0) {
          own.addAll(List.of("--metrics-port", Integer.toString(metricsPort)));
        }
        providers.add(EmbeddedServer.start(framework, mainClass, own, launcher));
        ports.add(metricsPort);
      }
    } catch (RuntimeException e) {
      new Deployment(started, registry, providers, ports).close();
      throw e;
    }
    return new Deployment(started, registry, providers, ports);
  }

  /** The process ids of the providers and of the registry the lab started, over all their restarts. */
  java.util.Set<Long> pids() {
    java.util.Set<Long> all = new java.util.HashSet<>();
    providers.forEach(p -> all.addAll(p.pids()));
    if (started != null) {
      all.addAll(started.pids());
    }
    return all;
  }

  /** The process ids of the providers, over all their restarts. */
  java.util.Set<Long> providerPids() {
    java.util.Set<Long> all = new java.util.HashSet<>();
    providers.forEach(p -> all.addAll(p.pids()));
    return all;
  }

  /** The providers' addresses, in order (provider 1 first). */
  List<HostPort> addresses() {
    return providers.stream().map(EmbeddedServer::address).toList();
  }

  /** The registry the client finds the providers through, if any. */
  Optional<Registry> registry() {
    return Optional.ofNullable(registry);
  }

  /** What the first provider says it runs (server kind, pools, wire format); empty if it says nothing. */
  public java.util.Optional<String> serverSettings() {
    return providers.get(0).settings();
  }

  /** Provider {@code n} (from 1). */
  EmbeddedServer provider(int n) {
    return providers.get(n - 1);
  }

  @Override
  public Faults.FaultTarget of(Faults.On on) {
    if (on.registry()) {
      if (started == null) {
        throw new IllegalArgumentException("no registry started by the lab to act on");
      }
      return started;
    }
    if (on.provider() > providers.size()) {
      throw new IllegalArgumentException("there is no provider " + on.provider() + " of " + providers.size());
    }
    return on.provider() == 0 ? every() : provider(on.provider());
  }

  /** Checks that every step of {@code steps} names something this deployment has. */
  void check(List<Faults.Step> steps) {
    for (Faults.Step s : steps) {
      try {
        of(s.on());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("-Dfaults: " + s.label() + ": " + e.getMessage()
            + (s.on().registry() ? " (-Dregistry=zookeeper or icegrid starts one)" : " (-Dproviders)"));
      }
    }
  }

  /** Every provider as one target: the service as a whole goes away and comes back. */
  private Faults.FaultTarget every() {
    if (providers.size() == 1) {
      return providers.get(0);
    }
    return new Faults.FaultTarget() {
      @Override
      public void kill() {
        providers.forEach(EmbeddedServer::kill);
      }

      @Override
      public void restart() {
        providers.forEach(EmbeddedServer::restart);
      }

      @Override
      public void signal(String name) {
        providers.forEach(p -> p.signal(name));
      }
    };
  }

  /** Fresh providers (new processes on the same addresses), for the next driver; the registry stays. */
  void restartProviders() {
    providers.forEach(EmbeddedServer::restart);
  }

  /** Each provider's address and the calls it served, as it counted them itself. */
  List<Map<String, Object>> served() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < providers.size(); i++) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("provider", i + 1);
      p.put("address", providers.get(i).address().toString());
      p.put("served", providers.get(i).served());
      if (metricsPorts.get(i) > 0) {
        p.put("metrics", "http://" + providers.get(i).address().host() + ":" + metricsPorts.get(i) + "/metrics");
      }
      out.add(p);
    }
    return out;
  }

  /** The providers first (they deregister), then the registry the lab started. */
  @Override
  public void close() {
    providers.forEach(EmbeddedServer::close);
    if (started != null) {
      started.close();
    }
  }

  /** One line unless {@code what} (e.g. "the zookeeper registry") at {@code target} accepts a connection. */
  static void checkReachable(HostPort target, String what, String param) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_CHECK_MILLIS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach " + what + " at " + target + " (-D" + param + "): "
          + Errors.oneLine(e));
    }
  }
}
