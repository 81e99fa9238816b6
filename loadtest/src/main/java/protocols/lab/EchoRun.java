package protocols.lab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import protocols.load.Faults;
import protocols.rpc.Errors;
import protocols.rpc.HostPort;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcProtocol;

/**
 * One framework in a run: its server (embedded in its own JVM unless a target is given), checked by a
 * real echo call, its protocol as the -D parameters configure it, and the faults injected into its
 * server. Any bad input ends the JVM here with one line on stderr and exit code 1, before Gatling
 * starts a user. Its levels are {@link EchoLevels}.
 */
public final class EchoRun {
  private static final int CONNECT_CHECK_MILLIS = 3_000;
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

  private final RpcFramework<?, ?> framework;
  private final LoadParams params;
  private final EmbeddedServer server;
  private final HostPort target;
  private final Faults faults;
  private final LabRun run;

  private EchoRun(RpcFramework<?, ?> framework, LoadParams params, EmbeddedServer server, HostPort target,
                  LabRun run) {
    this.framework = framework;
    this.params = params;
    this.server = server;
    this.target = target;
    this.run = run;
    this.faults = new Faults(params.faults(), server, !params.faultsInLevel(), run.faults());
  }

  /**
   * Starts the framework's embedded server or, when {@code targetParam} (e.g. {@code target}) is
   * given, checks that the target accepts connections; either way one real echo call must succeed.
   */
  public static EchoRun start(RpcFramework<?, ?> framework, LoadParams params, String targetParam, LabRun run) {
    return orExit(() -> {
      List<String> args = framework.serverArgs(params); // checks the framework's own -D parameters
      if (params.target(targetParam).isPresent()) {
        if (!params.faults().isEmpty()) {
          throw new IllegalArgumentException("-Dfaults acts on the embedded server; leave out -D" + targetParam);
        }
        if (params.serverDelayUs().isPresent()) {
          throw new IllegalArgumentException("-DserverDelayUs sets the embedded server's --delay-us; leave out -D"
              + targetParam + ", or start your server with --delay-us");
        }
        HostPort target = params.target(targetParam).get();
        checkReachable(framework.name(), target, targetParam);
        probe(framework, params, target, "-D" + targetParam);
        return new EchoRun(framework, params, null, target, run);
      }
      EmbeddedServer server = EmbeddedServer.start(framework.name(), framework.serverMainClass(), args);
      try {
        probe(framework, params, server.address(), "embedded");
      } catch (IllegalStateException e) {
        server.close();
        throw e;
      }
      return new EchoRun(framework, params, server, server.address(), run);
    });
  }

  /**
   * One real echo before the first level: accepting TCP proves nothing (a server of another framework
   * accepts too), so a run against a wrong or dead server ends here with one line, not with levels of KOs.
   */
  public static <C extends RpcClient, R> void probe(RpcFramework<C, R> framework, LoadParams params, HostPort target,
                                                    String source) {
    Duration timeout = params.timeout().compareTo(PROBE_TIMEOUT) > 0 ? params.timeout() : PROBE_TIMEOUT;
    R order = framework.order(1, params);
    R reply = null;
    String limit = null;
    try (C client = framework.newClient(params, target, InvocationMode.ASYNC, timeout)) {
      try {
        reply = framework.echo(client).callAsync(client, order).toCompletableFuture()
            .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
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
      throw new IllegalStateException("the server at " + target + " (" + source + ") does not answer a "
          + framework.name() + " echo call: " + (cause instanceof TimeoutException ? "no reply within "
          + timeout.toMillis() + " ms" : Errors.rootMessage(cause)));
    }
    if (limit != null) {
      throw new IllegalStateException("the first " + framework.name() + " echo call to " + target + " (" + source
          + ") failed: " + limit);
    }
    if (!order.equals(reply)) {
      throw new IllegalStateException("the server at " + target + " (" + source + ") answered a " + framework.name()
          + " echo call with a different order: it is not an echo server of this contract");
    }
  }

  /** Runs {@code step}; an {@link IllegalArgumentException} or {@link IllegalStateException} ends the JVM with one line (exit 1). */
  public static <T> T orExit(Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw ExitStatus.exitNow(e.getMessage(), e);
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

  public RpcFramework<?, ?> framework() {
    return framework;
  }

  public LoadParams params() {
    return params;
  }

  public HostPort target() {
    return target;
  }

  public LabRun run() {
    return run;
  }

  Faults faults() {
    return faults;
  }

  /** The framework's protocol with the shared -D parameters, the target and {@code mode} applied. */
  public RpcProtocol<?, ?> protocol(InvocationMode mode) {
    return orExit(() -> framework.configured(params, target, mode));
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
    if (server != null) {
      server.restart();
    }
  }

  /** Cancels the faults still to come, then stops the embedded server, if this run started one. */
  public void stop() {
    faults.cancel();
    if (server != null) {
      server.close();
    }
  }
}
