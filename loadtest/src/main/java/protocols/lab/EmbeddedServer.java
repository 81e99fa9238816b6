package protocols.lab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import protocols.rpc.HostPort;
import protocols.rpc.Errors;
import protocols.load.Faults;

/**
 * An echo server in its own JVM, started from this class path: it is ready when it prints its
 * {@code READY} line, and is stopped with SIGTERM (then killed if it lingers) so no process is left.
 */
public final class EmbeddedServer implements AutoCloseable, Faults.FaultTarget, Faults.Reporting {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final String READY_PREFIX = "READY ";
  /** servers.common.Served's line: the calls the server counted since it started. */
  private static final String SERVED_PREFIX = "SERVED ";
  /** servers.common.EchoServerMain's line before the ready one: what the server runs, as it set it up. */
  private static final String SETTINGS_PREFIX = "SETTINGS ";

  private final String framework;
  private final List<String> command;
  private volatile Process process;
  private volatile boolean stopped;
  /** Set by {@link #close}: a fault step that fires later must not start a server nobody owns. */
  private boolean closed;
  /** Set by the JVM's exit (its hook): a restart racing it must not leave a server behind. */
  private volatile boolean exiting;
  private final HostPort address;
  private final Path log;
  private final Thread killOnExit;
  private final AtomicLong stdoutLines = new AtomicLong();
  /** The process ids of every life so far: the CPU of each is this server's. */
  private final java.util.Set<Long> pids = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** Starts of the process so far (a restart is another life); a life's count is only its own. */
  private volatile int lives = 1;
  /** Calls served by the lives before this one, and by this one so far, as the server counted them. */
  private final Object counts = new Object();
  private long servedBefore;
  private long servedNow;
  /** When this life's first SERVED line came (System.nanoTime), 0 before. */
  private volatile long firstServedNanos;
  private volatile Thread drain;
  /** Set when a start failed: its log is kept for the user, not deleted by {@link #close}. */
  private volatile boolean keepLog;
  /** The server's own account of its settings (its last life's), without the framework's name; null if none. */
  private volatile String settings;

  private EmbeddedServer(String framework, List<String> command, Process process, HostPort address, Path log) {
    this.framework = framework;
    this.command = List.copyOf(command);
    this.process = process;
    this.address = address;
    this.log = log;
    this.pids.add(process.pid());
    this.killOnExit = new Thread(() -> {
      exiting = true; // before reading process: a restart writes process, then reads exiting
      this.process.destroyForcibly();
      if (!keepLog) {
        log.toFile().delete(); // a JVM that exits without closing its servers leaves nothing in /tmp
      }
    }, framework + "-server-kill");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * Starts {@code mainClass} on a free loopback port with {@code extraArgs}, and waits for it to be ready.
   *
   * @throws IllegalStateException with the server's own last error line if it does not become ready
   */
  public static EmbeddedServer start(String framework, String mainClass, List<String> extraArgs) {
    return start(framework, mainClass, extraArgs, List.of());
  }

  /** As {@link #start(String, String, List)}, the JVM started behind {@code launcher} (-Dcpus: taskset). */
  static EmbeddedServer start(String framework, String mainClass, List<String> extraArgs, List<String> launcher) {
    int port = LoopbackPorts.next();
    String host = "127.0.0.1";
    List<String> args = new ArrayList<>(List.of("--host", host, "--port", Integer.toString(port)));
    args.addAll(extraArgs);
    List<String> command = new ArrayList<>(launcher);
    command.addAll(JvmCommand.of(List.of(), mainClass, args));
    Path log;
    Process process;
    try {
      log = Files.createTempFile(framework + "-echo-server-", ".log");
      process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    } catch (IOException e) {
      throw new IllegalStateException("could not start the embedded " + framework + " server: " + Errors.oneLine(e));
    }
    EmbeddedServer server = new EmbeddedServer(framework, command, process, new HostPort(host, port), log);
    server.awaitReady();
    return server;
  }

  private void awaitReady() {
    long begun = System.nanoTime();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> {
      try {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith(READY_PREFIX)) {
            return true;
          }
          if (line.startsWith(SETTINGS_PREFIX + framework + " ")) {
            settings = line.substring(SETTINGS_PREFIX.length() + framework.length() + 1);
          }
        }
      } catch (IOException e) {
        // stream closed: the process ended
      }
      return false;
    });
    boolean ok;
    try {
      ok = ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      ok = false;
    }
    if (!ok) {
      String why = startFailure(process, begun);
      keepLog = true;
      close();
      throw new IllegalStateException("embedded " + framework + " server " + why + ": " + lastLogLines(3)
          + " (its log: " + keptLog() + ")");
    }
    // Keep draining stdout so the server never blocks on a full pipe; its SERVED lines are its count.
    int life = lives;
    Thread drain = new Thread(() -> {
      try {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith(SERVED_PREFIX)) {
            served(life, line);
          } else {
            stdoutLines.incrementAndGet();
          }
        }
      } catch (IOException ignored) {
        // process ended
      }
    }, framework + "-server-stdout");
    drain.setDaemon(true);
    drain.start();
    this.drain = drain;
  }

  /** What the server says it runs (server kind, pools, wire format), as it printed it; empty if it says nothing. */
  public Optional<String> settings() {
    return Optional.ofNullable(settings);
  }

  /** What became of a process that printed no ready line: it exited (with its status, after how long) or hangs. */
  private static String startFailure(Process p, long begunNanos) {
    try {
      if (p.waitFor(5, TimeUnit.SECONDS)) { // its stdout closed: it is exiting
        return String.format(java.util.Locale.ROOT, "exited with status %d after %.1f s without its ready line",
            p.exitValue(), (System.nanoTime() - begunNanos) / 1e9);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "printed no ready line within " + START_TIMEOUT.toSeconds() + " s";
  }

  /**
   * A failed start's log, moved beside the runs (Gatling's results folder, -rf) where there is one, so
   * it outlives the temporary folder; else where it is.
   */
  private Path keptLog() {
    try {
      Optional<Path> results = RunFolder.resultsFolder();
      if (results.isEmpty()) {
        return log;
      }
      Files.createDirectories(results.get());
      return Files.move(log, results.get().resolve(log.getFileName()));
    } catch (IOException | RuntimeException e) {
      return log;
    }
  }

  /** The last {@code n} non-blank lines of the server's stderr, joined, or that it printed none. */
  private String lastLogLines(int n) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
          .filter(l -> !l.isBlank()).map(String::trim).toList();
      if (!lines.isEmpty()) {
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
      }
    } catch (IOException ignored) {
      // fall through
    }
    return "it printed nothing on stderr";
  }

  public HostPort address() {
    return address;
  }

  private void served(int life, String line) {
    long n;
    try {
      n = Long.parseLong(line.substring(SERVED_PREFIX.length()).trim());
    } catch (NumberFormatException e) {
      return;
    }
    synchronized (counts) {
      if (life != lives) {
        return; // a line from a life that is over, read late
      }
      if (n > 0 && firstServedNanos == 0) {
        firstServedNanos = System.nanoTime();
      }
      servedNow = Math.max(servedNow, n);
    }
  }

  /**
   * The calls this server served, as it counted them, over all its lives: exact once it was stopped
   * (its last line is read before {@link #close} returns), within 100 ms of calls while it runs, and
   * short of what a killed life served in its last 100 ms.
   */
  public long served() {
    synchronized (counts) {
      return servedBefore + servedNow;
    }
  }

  /** When the current life of the server reported its first call served (System.nanoTime, within 100 ms), or 0. */
  @Override
  public long firstServedNanos() {
    return firstServedNanos;
  }

  /** Lines the server printed after its ready line, on stdout and stderr, restarts included. */
  public long logLines() {
    try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return stdoutLines.get() + lines.count();
    } catch (IOException | UncheckedIOException e) {
      throw new IllegalStateException("could not read the " + framework + " server's log: " + Errors.oneLine(e));
    }
  }

  /** The server's log file (stderr). */
  public Path log() {
    return log;
  }

  /** The server's resident memory in bytes (Linux /proc), for flood tests. */
  public long residentBytes() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException e) {
      // fall through
    }
    throw new IllegalStateException("no resident memory figure for the " + framework + " server");
  }

  /** The process id of each of its lives (restarts are new processes). */
  public java.util.Set<Long> pids() {
    return java.util.Set.copyOf(pids);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Fault injection: SIGKILL, as a crash; returns when the process is gone. Nothing after {@link #close}. */
  public synchronized void kill() {
    if (closed) {
      return;
    }
    try {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Fault injection: a new server process on the same address; returns when it is ready.
   *
   * @throws IllegalStateException after {@link #close}: nothing is started then
   */
  public synchronized void restart() {
    if (closed || exiting) {
      throw new IllegalStateException("the embedded " + framework + " server was stopped: not restarted");
    }
    kill();
    synchronized (counts) {
      servedBefore += servedNow;
      servedNow = 0;
      firstServedNanos = 0;
      lives++;
    }
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      pids.add(process.pid());
    } catch (IOException e) {
      throw new IllegalStateException("could not restart the embedded " + framework + " server: " + Errors.oneLine(e));
    }
    if (exiting) { // the JVM's exit began while it started: its hook may have killed the one before
      process.destroyForcibly();
      throw new IllegalStateException("the run is ending: the embedded " + framework + " server was not restarted");
    }
    awaitReady();
  }

  /**
   * Fault injection: SIGSTOP (a stalled server: connections stay open, nothing answers) or SIGCONT.
   * Nothing after {@link #close}: its process id may belong to another process by then.
   */
  public synchronized void signal(String name) {
    if (!closed) {
      sendSignal(name);
    }
  }

  private void sendSignal(String name) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      kill.waitFor(10, TimeUnit.SECONDS);
      stopped = name.equals("STOP");
    } catch (IOException e) {
      throw new IllegalStateException("could not send SIG" + name + " to the " + framework + " server: " + Errors.oneLine(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGTERM, up to 10 s for a clean exit, then SIGKILL; a restart in progress finishes first. */
  @Override
  public synchronized void close() {
    closed = true;
    if (stopped) {
      sendSignal("CONT"); // a stopped process cannot act on SIGTERM
    }
    OwnedProcess.stop(process, Duration.ofSeconds(10));
    try {
      Thread reader = drain;
      if (reader != null) {
        reader.join(2_000); // its last SERVED line
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
    if (!keepLog) {
      try {
        Files.deleteIfExists(log);
      } catch (IOException ignored) {
        // a temp file
      }
    }
  }

}
