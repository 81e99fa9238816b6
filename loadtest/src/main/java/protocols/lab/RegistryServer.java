package protocols.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import protocols.load.Faults;
import protocols.rpc.Errors;
import protocols.rpc.TempFolders;
import protocols.rpc.HostPort;
import protocols.rpc.Registry;

/**
 * A registry the lab starts for a run, on loopback, in its own process: Apache ZooKeeper (its own
 * {@code ZooKeeperServerMain} from this class path, in a JVM) or ZeroC's {@code icegridregistry} (Debian's
 * zeroc-icegrid). Its data lives in a folder of its own, deleted when it stops. Faults can kill and
 * restart it on the same port and data, as a registry's crash and restart.
 */
final class RegistryServer implements AutoCloseable, Faults.FaultTarget {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  static final String ICEGRID_BINARY = "icegridregistry";

  private final Registry registry;
  private final List<String> command;
  private final Path folder;
  private final Path log;
  private final Thread killOnExit;
  private volatile Process process;
  /** The process id of each start (a fault's restart is a new process). */
  private final java.util.Set<Long> pids = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private boolean closed;
  /** Set by the JVM's exit (its hook): a restart racing it must not leave a registry behind. */
  private volatile boolean exiting;

  private RegistryServer(Registry registry, List<String> command, Path folder) {
    this.registry = registry;
    this.command = List.copyOf(command);
    this.folder = folder;
    this.log = folder.resolve("registry.log");
    this.killOnExit = new Thread(() -> {
      exiting = true; // before reading process: a launch writes process, then reads exiting
      Process p = process;
      if (p != null) {
        p.destroyForcibly();
      }
    }, registry.kind().scheme() + "-kill");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * Starts a registry of {@code kind} on a free loopback port and waits until it answers.
   *
   * @throws IllegalStateException in one line: not installed, or not ready in time (with its last log line)
   */
  static RegistryServer start(Registry.Kind kind) {
    return start(kind, List.of());
  }

  /** As {@link #start(Registry.Kind)}, the registry started behind {@code launcher} (-Dcpus: taskset). */
  static RegistryServer start(Registry.Kind kind, List<String> launcher) {
    Path folder;
    try {
      folder = Files.createTempDirectory("rpc-lab-" + kind.scheme() + "-");
    } catch (IOException e) {
      throw new IllegalStateException("cannot make a folder for the " + kind.scheme() + " registry: " + Errors.oneLine(e));
    }
    int port = LoopbackPorts.next();
    Registry registry = new Registry(kind, new HostPort("127.0.0.1", port));
    RegistryServer server;
    try {
      List<String> command = new ArrayList<>(launcher);
      command.addAll(switch (kind) {
        case ZOOKEEPER -> zookeeper(folder, port);
        case ICEGRID -> icegrid(folder, port);
      });
      server = new RegistryServer(registry, command, folder);
    } catch (IOException e) {
      TempFolders.delete(folder);
      throw new IllegalStateException("cannot configure the " + kind.scheme() + " registry: " + Errors.oneLine(e));
    } catch (IllegalStateException notInstalled) {
      TempFolders.delete(folder);
      throw notInstalled;
    }
    try {
      server.launch();
    } catch (IllegalStateException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** ZooKeeper standalone on loopback only: no admin server, only {@code ruok} among the four-letter words. */
  private static List<String> zookeeper(Path folder, int port) throws IOException {
    Path config = folder.resolve("zoo.cfg");
    Files.writeString(config, String.join("\n",
        "tickTime=2000",
        "dataDir=" + folder.resolve("data"),
        "clientPort=" + port,
        "clientPortAddress=127.0.0.1",
        "maxClientCnxns=0",
        "admin.enableServer=false",
        "4lw.commands.whitelist=ruok",
        ""));
    return JvmCommand.of(List.of("-Xmx256m", "-Dzookeeper.jmx.log4j.disable=true"),
        "org.apache.zookeeper.server.ZooKeeperServerMain", List.of(config.toString()));
  }

  /** An IceGrid registry on loopback that lets servers register their adapters themselves. */
  private static List<String> icegrid(Path folder, int port) throws IOException {
    if (!OwnedProcess.onPath(ICEGRID_BINARY)) {
      throw new IllegalStateException("-Dregistry=icegrid needs ZeroC's IceGrid registry (" + ICEGRID_BINARY
          + "), not found on PATH: install Debian's zeroc-icegrid (sudo apt-get install zeroc-icegrid)");
    }
    Files.createDirectories(folder.resolve("db"));
    Path config = folder.resolve("registry.cfg");
    Files.writeString(config, String.join("\n",
        "IceGrid.InstanceName=IceGrid",
        "IceGrid.Registry.Client.Endpoints=tcp -h 127.0.0.1 -p " + port,
        "IceGrid.Registry.Server.Endpoints=tcp -h 127.0.0.1",
        "IceGrid.Registry.Internal.Endpoints=tcp -h 127.0.0.1",
        "IceGrid.Registry.LMDB.Path=" + folder.resolve("db"),
        "IceGrid.Registry.DynamicRegistration=1",
        "IceGrid.Registry.PermissionsVerifier=IceGrid/NullPermissionsVerifier",
        "IceGrid.Registry.AdminPermissionsVerifier=IceGrid/NullPermissionsVerifier",
        ""));
    return List.of(ICEGRID_BINARY, "--Ice.Config=" + config);
  }

  /** The registry's process ids, over its restarts. */
  java.util.Set<Long> pids() {
    return java.util.Set.copyOf(pids);
  }

  private void launch() {
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      pids.add(process.pid());
    } catch (IOException e) {
      throw new IllegalStateException("could not start the " + registry.kind().scheme() + " registry: "
          + Errors.oneLine(e));
    }
    if (exiting) { // the JVM's exit began while it started
      process.destroyForcibly();
      throw new IllegalStateException("the run is ending: the " + registry.kind().scheme() + " registry was not started");
    }
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!answers()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the " + registry.kind().scheme() + " registry did not start on " + registry.address()
            + (process.isAlive() ? " within " + START_TIMEOUT.toSeconds() + " s" : "") + ": " + lastLogLine());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the " + registry.kind().scheme() + " registry");
      }
    }
  }

  /** ZooKeeper answers {@code ruok} with {@code imok} once it serves; IceGrid accepts on its client endpoint once activated. */
  private boolean answers() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(registry.address().host(), registry.address().port()), 1_000);
      if (registry.kind() != Registry.Kind.ZOOKEEPER) {
        return true;
      }
      s.setSoTimeout(1_000);
      OutputStream out = s.getOutputStream();
      out.write("ruok".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readNBytes(4), StandardCharsets.US_ASCII).equals("imok");
    } catch (IOException e) {
      return false;
    }
  }

  private String lastLogLine() {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines.filter(l -> !l.isBlank()).reduce((a, b) -> b).map(String::trim).orElse("no output");
    } catch (IOException | java.io.UncheckedIOException e) {
      return "no output";
    }
  }

  Registry registry() {
    return registry;
  }

  /** Its process now (a restart makes another). */
  Process process() {
    return process;
  }

  /** Fault injection: SIGKILL, as a crash. */
  @Override
  public synchronized void kill() {
    if (!closed) {
      try {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Fault injection: a new registry process on the same port and data; returns when it answers. */
  @Override
  public synchronized void restart() {
    if (closed || exiting) {
      throw new IllegalStateException("the " + registry.kind().scheme() + " registry was stopped: not restarted");
    }
    kill();
    launch();
  }

  @Override
  public void signal(String name) {
    throw new IllegalStateException("stop and cont act on providers, not on the registry");
  }

  @Override
  public synchronized void close() {
    closed = true;
    Process p = process;
    if (p != null) {
      OwnedProcess.stop(p, Duration.ofSeconds(10));
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
    TempFolders.delete(folder);
  }
}
