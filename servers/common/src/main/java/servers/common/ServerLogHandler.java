package servers.common;

import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * java.util.logging to stderr, one line a record: {@code 10:15:02.123 WARNING logger: message (Root: cause)},
 * no stack traces. Named in the servers' logging configuration, so it must stay public.
 */
public final class ServerLogHandler extends Handler {
  /** The configuration every server runs with (Dubbo reads its copy from logging.properties). */
  public static final String CONFIGURATION = "handlers=" + ServerLogHandler.class.getName() + "\n.level=WARNING\n";

  @Override
  public void publish(LogRecord r) {
    if (!isLoggable(r)) {
      return;
    }
    StringBuilder b = new StringBuilder()
        .append(LocalTime.now().truncatedTo(ChronoUnit.MILLIS)).append(' ')
        .append(r.getLevel().getName()).append(' ')
        .append(r.getLoggerName()).append(": ")
        .append(firstLine(r.getMessage()));
    if (r.getThrown() != null) {
      b.append(" (").append(EchoServerMain.rootMessage(r.getThrown())).append(')');
    }
    System.err.println(b);
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("").trim();
  }

  @Override
  public void flush() {
    System.err.flush();
  }

  @Override
  public void close() {
    // stderr stays open
  }
}
