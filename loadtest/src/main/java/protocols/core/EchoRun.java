package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One framework in a run: its server (embedded in its own JVM unless a target is given), its
 * protocol as the -D parameters configure it, and the populations that step through the levels.
 * Any bad input ends the JVM here with one line on stderr and exit code 1, before Gatling starts a user.
 */
public final class EchoRun {
  private static final int CONNECT_CHECK_MILLIS = 3_000;
  static final String WARMUP = "warm-up";

  private final EchoFramework<?> framework;
  private final LoadParams params;
  private final EmbeddedServer server;
  private final HostPort target;

  private EchoRun(EchoFramework<?> framework, LoadParams params, EmbeddedServer server, HostPort target) {
    this.framework = framework;
    this.params = params;
    this.server = server;
    this.target = target;
  }

  /**
   * Starts the framework's embedded server or, when {@code targetParam} (e.g. {@code target}) is
   * given, checks that the target accepts connections.
   */
  public static EchoRun start(EchoFramework<?> framework, LoadParams params, String targetParam) {
    return orExit(() -> {
      List<String> args = framework.serverArgs(params);
      if (params.target(targetParam).isPresent()) {
        HostPort target = params.target(targetParam).get();
        checkReachable(framework.name(), target, targetParam);
        return new EchoRun(framework, params, null, target);
      }
      EmbeddedServer server = EmbeddedServer.start(framework.name(), framework.serverMainClass(), args);
      return new EchoRun(framework, params, server, server.address());
    });
  }

  /** Runs {@code step}; an {@link IllegalArgumentException} or {@link IllegalStateException} ends the JVM with one line (exit 1). */
  public static <T> T orExit(Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("error: " + e.getMessage());
      System.err.flush();
      System.exit(1);
      throw e;
    }
  }

  static void checkReachable(String framework, HostPort target, String targetParam) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_CHECK_MILLIS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach the " + framework + " server at " + target + " (-D" + targetParam
          + "): " + Errors.oneLine(e));
    }
  }

  public EchoFramework<?> framework() {
    return framework;
  }

  public LoadParams params() {
    return params;
  }

  public HostPort target() {
    return target;
  }

  /** The framework's protocol with the shared -D parameters, the target and {@code mode} applied. */
  public ProtocolBuilder protocol(InvocationMode mode) {
    return orExit(() -> framework.protocol(params)
        .target(target.host(), target.port())
        .timeout(params.timeout())
        .mode(mode)
        .syncThreads(params.syncThreads())
        .connections(params.connections()));
  }

  /** Whether a request name is a warm-up's, whose figures are not measurements. */
  public static boolean isWarmup(String requestName) {
    return requestName.contains(WARMUP + " (");
  }

  /** The request name of one level, e.g. {@code echo 20 clients (async)} with an optional prefix. */
  public static String requestName(String prefix, int clients, InvocationMode mode) {
    return prefix + "echo " + clients + " clients (" + mode.label() + ")";
  }

  /**
   * The warm-up, then one scenario per level. Each level's users are persistent clients calling in a
   * loop, and its requests are named by {@link #requestName}, so Gatling's report gives every level
   * its own line.
   *
   * @param prefix put before request and scenario names (the shootout's framework name), or ""
   * @param protocol set on each scenario (the shootout's), or null to use the simulation's
   */
  public List<PopulationBuilder> populations(String prefix, InvocationMode mode, ProtocolBuilder protocol) {
    List<PopulationBuilder> steps = new ArrayList<>();
    String tag = "(" + mode.label() + ")";
    List<Integer> levels = params.levels();
    Warmup.Plan warmup = params.warmup();
    if (!warmup.skipped()) {
      int users = Math.min(20, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
      String name = prefix + WARMUP + " " + tag;
      steps.add(withProtocol(scenario(name)
          .exec(Warmup.loop(name, warmup, framework.echoCall(name)))
          .injectOpen(atOnceUsers(users)), protocol));
    }
    for (int clients : levels) {
      String request = requestName(prefix, clients, mode);
      ChainBuilder loop = params.calls()
          .map(n -> repeat(n).on(exec(framework.echoCall(request))))
          .orElseGet(() -> during(params.duration()).on(exec(framework.echoCall(request))));
      steps.add(withProtocol(scenario(prefix + clients + " clients " + tag).exec(loop).injectOpen(atOnceUsers(clients)),
          protocol));
    }
    return steps;
  }

  private static PopulationBuilder withProtocol(PopulationBuilder p, ProtocolBuilder protocol) {
    return protocol == null ? p : p.protocols(protocol);
  }

  /** The populations one after the other: each starts when the previous one has finished. */
  public static PopulationBuilder sequence(List<PopulationBuilder> steps) {
    PopulationBuilder chain = steps.get(steps.size() - 1);
    for (int i = steps.size() - 2; i >= 0; i--) {
      chain = steps.get(i).andThen(chain);
    }
    return chain;
  }

  /** Stops the embedded server, if this run started one. */
  public void stop() {
    if (server != null) {
      server.close();
    }
  }
}
