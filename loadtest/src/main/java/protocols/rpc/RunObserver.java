package protocols.rpc;

/**
 * One run's observer: its calls ({@link CallObserver}), the protocols its requests use, and its end.
 * A simulation gives its own ({@link RpcRun#observedBy}); one that gives none gets the first
 * {@link Factory} found on the class path (the lab's µs reports), else none.
 */
public interface RunObserver extends CallObserver {

  /** A request of this run calls through {@code protocol} (told once per request, at build time). */
  void protocolUsed(RpcProtocol<?, ?> protocol);

  /** The run's client of {@code protocol} found its servers there ({@link RpcClient#providersFound}); told per request. */
  default void providersFound(RpcProtocol<?, ?> protocol, java.util.List<String> found) {
  }

  /**
   * A framework's client, or a request's preparation, could not start ({@code error} says why in one
   * line): returns what to throw. The plugin never ends the JVM; an observer may, with one line.
   */
  default RuntimeException failedToStart(RuntimeException error) {
    return error;
  }

  /** The run is over: Gatling's actor system is terminating (called once). */
  void end();

  /** Makes a run's observer; found with {@link java.util.ServiceLoader} for simulations that give none. */
  interface Factory {
    RunObserver create(io.gatling.core.CoreComponents core);
  }

  /** Observes nothing. */
  RunObserver NONE = new RunObserver() {
    @Override
    public void started(String name, long startNanos) {
    }

    @Override
    public void completed(String request, String name, long intendedNanos, long startNanos, long endNanos,
                          String failure, boolean open) {
    }

    @Override
    public void openLevel(String name, double rate, int maxInFlight, long startNanos) {
    }

    @Override
    public void dropped(String name, long dueNanos) {
    }

    @Override
    public void unsent(String name, long calls, String reason) {
    }

    @Override
    public void protocolUsed(RpcProtocol<?, ?> protocol) {
    }

    @Override
    public void end() {
    }
  };
}
