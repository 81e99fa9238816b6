package protocols.rpc;

/**
 * How a framework's client lays out its connections and how often one call crosses threads on the
 * injector (sending, and bringing the reply back to the virtual user's event loop), as the run's
 * protocol table says it: each hop is a queue and a wake-up per call that the harness, not the
 * framework, may be charged for.
 *
 * @param layout what {@code -Dconnections=0} gives, in a few words without commas (the comparison's rows)
 * @param connections what {@code -Dconnections=0} gives, in words (the protocol table)
 * @param asyncHops thread hand-offs of one async call with that layout, the resume on the user's loop included
 * @param path where the call and its reply run, in words
 */
public record ClientPath(String layout, String connections, int asyncHops, String path) {

  /** The connections a run with {@code -Dconnections=given} has, in short: N, or the layout for 0. */
  public String layout(int given) {
    return given == 0 ? layout : Integer.toString(given);
  }

  /** The hand-offs of one call in {@code mode}: sync mode adds the sync pool's thread each way. */
  public int hops(InvocationMode mode) {
    return asyncHops + (mode == InvocationMode.SYNC ? 2 : 0);
  }

  /** As the protocol table says it, e.g. "2 per call: the write to ...". */
  public String describe(InvocationMode mode) {
    int hops = hops(mode);
    return hops + (hops == 1 ? " hop" : " hops") + " per call: " + path
        + (mode == InvocationMode.SYNC ? "; in sync mode also the sync pool's thread, there and back" : "");
  }
}
