package protocols.stats;

import java.util.List;
import protocols.rpc.InvocationMode;

/**
 * A recorded 20-second level at 1,000 calls/s whose calls from 3.03 s to 10.5 s went to its fault
 * row: the server down from 3.03 s to 5.5 s (those calls fail, one per 10 ms as a KO pause has it).
 */
public final class FaultedLevel {
  public static final Level LEVEL = Level.closed(null, 5, InvocationMode.ASYNC);
  private static final long MS = 1_000_000L;

  private FaultedLevel() {}

  /** The level's row, then its fault row. */
  public static List<RequestStats> record() {
    return record(10_500);
  }

  /**
   * As {@link #record()}, its fault window ending {@code windowEndMillis} after the level started: at
   * 20,000 or later the level ends inside it, as one that went on until its server was back does.
   */
  public static List<RequestStats> record(long windowEndMillis) {
    LatencyRecorder r = new LatencyRecorder();
    Level window = LEVEL.inFaultWindow();
    r.describe(LEVEL.name(), LEVEL);
    r.started(LEVEL.name(), 0);
    for (long t = 0; t < 20_000 * MS; t += MS) {
      boolean inWindow = t >= 3_030 * MS && t < windowEndMillis * MS;
      boolean down = t >= 3_030 * MS && t < 5_500 * MS;
      if (down && t % (10 * MS) != 0) {
        continue;
      }
      if (inWindow) {
        r.describe(window.name(), window);
      }
      r.record(inWindow ? window.name() : LEVEL.name(), t, t + 200_000, down ? "connection refused" : null);
    }
    return r.snapshot();
  }
}
