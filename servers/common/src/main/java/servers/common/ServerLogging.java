package servers.common;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;

/**
 * A server's log cannot be flooded by its clients. Each framework logs bad input its own way (Thrift a
 * line per garbage connection, gRPC a stack trace per connection, Dubbo one per read), through
 * whichever logging library is on the class path, and all of it ends on stdout or stderr; so both
 * streams pass through one {@link LineLimiter}, and java.util.logging (gRPC's, and Dubbo's) is set to
 * warnings, one line each ({@link ServerLogHandler}).
 */
public final class ServerLogging {
  private ServerLogging() {}

  /** Installs the limits; call before the framework starts. Returns the real stdout, for the ready line. */
  public static PrintStream install() {
    PrintStream out = System.out;
    LineLimiter limiter = new LineLimiter(System.err, LineLimiter.DEFAULT_RECORDS,
        LineLimiter.DEFAULT_LINES_PER_RECORD, LineLimiter.DEFAULT_WINDOW_MILLIS);
    System.setOut(new PrintStream(limiter.stream(), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(limiter.stream(), true, StandardCharsets.UTF_8));
    try {
      LogManager.getLogManager().readConfiguration(
          new ByteArrayInputStream(ServerLogHandler.CONFIGURATION.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new IllegalStateException("could not configure java.util.logging: " + e.getMessage(), e);
    }
    return out;
  }
}
