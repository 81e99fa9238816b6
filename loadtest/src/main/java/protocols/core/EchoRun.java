package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every echo simulation shares: its -D parameters, the server it calls (embedded in its own JVM
 * unless -Dtarget is given), and the populations that step through the concurrency levels. Any bad
 * input ends the run here with one line on stderr and exit code 1, before Gatling starts a user.
 */
public final class EchoRun {
  private static final int CONNECT_CHECK_MILLIS = 3_000;

  private final String framework;
  private final LoadParams params;
  private final EmbeddedServer server;
  private final HostPort target;

  private EchoRun(String framework, LoadParams params, EmbeddedServer server, HostPort target) {
    this.framework = framework;
    this.params = params;
    this.server = server;
    this.target = target;
  }

  /**
   * Reads the -D parameters, then starts {@code serverMainClass} with {@code serverArgs} or, with
   * -Dtarget, checks that the target accepts connections.
   */
  public static EchoRun start(String framework, String serverMainClass, Function<LoadParams, List<String>> serverArgs) {
    return orExit(() -> {
      LoadParams params = LoadParams.fromSystemProperties().validate();
      List<String> args = serverArgs.apply(params);
      if (params.target().isPresent()) {
        HostPort target = params.target().get();
        checkReachable(framework, target);
        return new EchoRun(framework, params, null, target);
      }
      EmbeddedServer server = EmbeddedServer.start(framework, serverMainClass, args);
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

  static void checkReachable(String framework, HostPort target) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_CHECK_MILLIS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach the " + framework + " server at " + target + " (-Dtarget): "
          + Errors.oneLine(e));
    }
  }

  public LoadParams params() {
    return params;
  }

  public HostPort target() {
    return target;
  }

  /** The mode's label as it appears in request and scenario names, e.g. {@code (async)}. */
  public String modeTag() {
    return "(" + params.mode().label() + ")";
  }

  /** Applies the shared -D parameters and the target to a framework's protocol builder. */
  public <B extends RpcProtocolBuilder<B>> B configure(B protocol) {
    return orExit(() -> protocol.target(target.host(), target.port())
        .timeout(params.timeout())
        .mode(params.mode())
        .syncThreads(params.syncThreads())
        .connections(params.connections()));
  }

  /**
   * The warm-up, then one scenario per level, each starting when the previous one has finished.
   * Each level's users are persistent clients calling in a loop, and its requests are named
   * {@code echo N clients (mode)}, so Gatling's report gives every level its own line.
   *
   * @param call builds the request for a request name
   */
  public PopulationBuilder populations(Function<String, ActionBuilder> call) {
    List<PopulationBuilder> steps = new ArrayList<>();
    String tag = modeTag();
    List<Integer> levels = params.levels();
    if (!params.warmup().isZero()) {
      int users = Math.min(20, levels.stream().mapToInt(Integer::intValue).max().orElse(1));
      String name = "warm-up " + tag;
      steps.add(scenario(name)
          .exec(during(params.warmup()).on(exec(call.apply(name))))
          .injectOpen(atOnceUsers(users)));
    }
    for (int clients : levels) {
      String request = "echo " + clients + " clients " + tag;
      ChainBuilder loop = params.calls()
          .map(n -> repeat(n).on(exec(call.apply(request))))
          .orElseGet(() -> during(params.duration()).on(exec(call.apply(request))));
      steps.add(scenario(clients + " clients " + tag).exec(loop).injectOpen(atOnceUsers(clients)));
    }
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

  public String framework() {
    return framework;
  }
}
