package protocols.stats;

/**
 * A streaming shootout's level as a value: one framework's {@code chat} streams, {@code streams} at once,
 * each paced at {@code perSecond} messages (0: as fast as the window allows), and which trial of it. Its
 * request name is made here and only here ({@link #name}).
 *
 * @param framework the framework's name
 * @param streams concurrent streams
 * @param perSecond messages per second per stream; 0 when not paced
 * @param trial which of a repeated level's trials (1, 2, ...; see {@code -Drepeat}); 0 when it runs once
 */
public record StreamLevel(String framework, int streams, int perSecond, int trial) {
  /** The level measured once, or before its trial is set. */
  public static StreamLevel chat(String framework, int streams, int perSecond) {
    return new StreamLevel(framework, streams, perSecond, 0);
  }

  /** Trial {@code n} of this level: {@code grpc chat 10 streams trial 2}; 0 for none. */
  public StreamLevel trial(int n) {
    return new StreamLevel(framework, streams, perSecond, n);
  }

  /** The level its trials are of. */
  public StreamLevel overTrials() {
    return trial(0);
  }

  /** The request name: {@code grpc chat 1 stream}, {@code triple chat 10 streams at 500 msg/s trial 3}. */
  public String name() {
    return framework + " " + load() + (trial > 0 ? " trial " + trial : "");
  }

  /** What every framework's level of these streams is, without the framework: {@code chat 10 streams at 500 msg/s}. */
  public String load() {
    return "chat " + streams + (streams == 1 ? " stream" : " streams") + (perSecond > 0 ? " at " + perSecond + " msg/s" : "");
  }

  @Override
  public String toString() {
    return name();
  }
}
