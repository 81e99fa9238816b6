package servers.common;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * Passes at most {@code records} log records per window, each cut to {@code linesPerRecord} lines (a
 * record is a line plus the indented or "Caused by" lines after it, as in a stack trace), and says how
 * many lines it held back once the window is over. Bounded output whatever a client sends.
 */
final class LineLimiter {
  static final int DEFAULT_RECORDS = 5;
  static final int DEFAULT_LINES_PER_RECORD = 4;
  static final long DEFAULT_WINDOW_MILLIS = 10_000;

  private final PrintStream target;
  private final int records;
  private final int linesPerRecord;
  private final long windowMillis;
  private final LongSupplier clock;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private long windowStart;
  private int recordsInWindow;
  private int linesInRecord;
  private boolean recordPassing;
  private long suppressed;

  LineLimiter(PrintStream target, int records, int linesPerRecord, long windowMillis) {
    this(target, records, linesPerRecord, windowMillis, System::currentTimeMillis);
  }

  LineLimiter(PrintStream target, int records, int linesPerRecord, long windowMillis, LongSupplier clock) {
    this.target = target;
    this.records = records;
    this.linesPerRecord = linesPerRecord;
    this.windowMillis = windowMillis;
    this.clock = clock;
    this.windowStart = clock.getAsLong();
    Thread reporter = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(windowMillis);
        } catch (InterruptedException e) {
          return;
        }
        synchronized (this) {
          rollWindow(clock.getAsLong());
        }
      }
    }, "log-limiter");
    reporter.setDaemon(true);
    reporter.start();
  }

  OutputStream stream() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        accept(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        accept(b, off, len);
      }

      @Override
      public void flush() {
        target.flush();
      }
    };
  }

  private synchronized void accept(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      line.write(b[i]);
      if (b[i] == '\n') {
        endLine();
      }
    }
  }

  private void endLine() {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    rollWindow(clock.getAsLong());
    boolean continuation = !text.isEmpty() && (Character.isWhitespace(text.charAt(0)) && !text.isBlank()
        || text.startsWith("Caused by") || text.startsWith("Suppressed:"));
    if (!continuation) {
      recordPassing = recordsInWindow < records;
      if (recordPassing) {
        recordsInWindow++;
      }
      linesInRecord = 0;
    }
    linesInRecord++;
    if (recordPassing && linesInRecord <= linesPerRecord) {
      target.print(text);
      target.flush();
    } else {
      suppressed++;
    }
  }

  private void rollWindow(long now) {
    if (now - windowStart < windowMillis) {
      return;
    }
    if (suppressed > 0) {
      target.println("[log limit] " + suppressed + " more log lines held back in the last " + windowMillis / 1000
          + " s (at most " + records + " records of " + linesPerRecord + " lines each per window)");
      target.flush();
    }
    windowStart = now;
    recordsInWindow = 0;
    suppressed = 0;
  }
}
