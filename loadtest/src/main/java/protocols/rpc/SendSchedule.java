package protocols.rpc;

import java.util.function.BooleanSupplier;

/**
 * Where an open-model level's senders get their plan: when each call is due, under which names, how
 * many senders share it. The plugin sends on it; the load shapes decide it (fixed rates, a search).
 */
public interface SendSchedule {

  /**
   * Called by each sender as it starts, with the run's observer: the level's plan and this sender's
   * index, or null when there is nothing to send (a search that is over).
   */
  Joined join(CallObserver observer);

  /**
   * One level's plan: its names, its schedule (from {@code startNanos}), its senders, each one's share
   * of the cap on calls in flight, and while the run wants calls sent ({@code keepSending}).
   */
  record Plan(String name, String rampName, RateSchedule schedule, long startNanos, int senders, int capPerSender,
              BooleanSupplier keepSending) {
  }

  /** A plan, and which of its senders this one is. */
  record Joined(Plan plan, int sender) {
  }
}
