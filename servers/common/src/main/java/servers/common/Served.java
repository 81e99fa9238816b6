package servers.common;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * The calls this server served, as the server itself counts them, for a run of several providers to
 * show how its client spread the load. Printed on stdout as {@code SERVED <n>} lines, at most every
 * {@link #PERIOD_MILLIS} ms while it changes and once when the server stops; the lab reads them.
 */
public final class Served {
  /** The line's prefix: {@code SERVED <calls since the start>}. */
  public static final String PREFIX = "SERVED ";
  static final long PERIOD_MILLIS = 100;
  private static final LongAdder CALLS = new LongAdder();

  private Served() {}

  /** One call, counted as it arrives (whatever its outcome). */
  public static void call() {
    CALLS.increment();
  }

  /** Prints the count on {@code out} while the server runs; {@link #print} prints the last one. */
  static void report(PrintStream out) {
    Thread t = new Thread(() -> {
      long last = 0;
      try {
        while (true) {
          Thread.sleep(PERIOD_MILLIS);
          long now = CALLS.sum();
          if (now != last) {
            print(out);
            last = now;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "served-count");
    t.setDaemon(true);
    t.start();
  }

  static void print(PrintStream out) {
    synchronized (out) {
      out.println(PREFIX + CALLS.sum());
      out.flush();
    }
  }
}
