package protocols.rpc;

import java.util.Optional;

/**
 * What the plugin tells about each call, for whoever records them (the lab's µs recorder, its fault
 * windows and its failure watch). Called on the virtual users' event loops: quick, and never blocking.
 * The plugin itself records nothing and decides nothing about the run.
 */
public interface CallObserver {

  /** The name a call of {@code request} started at {@code startNanos} is recorded and logged under. */
  default String nameFor(String request, long startNanos) {
    return request;
  }

  /** A call of {@code name} is being sent, at {@code startNanos} (System.nanoTime). */
  void started(String name, long startNanos);

  /**
   * A call has completed: {@code request} is the request's own name, {@code name} the one it was
   * recorded under ({@link #nameFor}); {@code intendedNanos} is its due time in an open-model level,
   * else its start; {@code failure} null for an OK.
   */
  void completed(String request, String name, long intendedNanos, long startNanos, long endNanos, String failure,
                 boolean open);

  /**
   * A call that was a stream ended, OK or not ({@code ok}): {@code stream} holds its per-message figures,
   * a failed stream's up to its failure (the call itself went to {@link #completed} first, as one record).
   */
  default void streamed(String name, long startNanos, long endNanos, StreamResult stream, boolean ok) {
  }

  /** An open-model level of {@code name} begins: {@code rate} calls/s from {@code startNanos}, at most {@code maxInFlight}. */
  void openLevel(String name, double rate, int maxInFlight, long startNanos);

  /** A call of an open-model level was due at {@code dueNanos} but not sent: the cap on calls in flight was reached. */
  void dropped(String name, long dueNanos);

  /** {@code calls} of an open-model level were due but will never be sent: their sender stopped ({@code reason}). */
  void unsent(String name, long calls, String reason);

  /** The object behind this observer that is a {@code type}, if there is one (e.g. its recorder). */
  default <T> Optional<T> unwrap(Class<T> type) {
    return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
  }
}
