package servers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LineLimiterTest {
  private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final OutputStream limited =
      new LineLimiter(new PrintStream(sink, true, StandardCharsets.UTF_8), 2, 3, 10_000, now::get).stream();

  private void write(String text) throws Exception {
    limited.write(text.getBytes(StandardCharsets.UTF_8));
  }

  private String out() {
    return sink.toString(StandardCharsets.UTF_8);
  }

  @Test
  void passesTheFirstRecordsOfAWindowCutToTheirFirstLinesAndCountsTheRest() throws Exception {
    write("one\n\tat a\n\tat b\n\tat c\nCaused by: x\n");
    write("two\n");
    write("three\n\tat d\n");
    assertEquals("one\n\tat a\n\tat b\ntwo\n", out());

    now.addAndGet(10_000);
    write("four\n");
    assertEquals("one\n\tat a\n\tat b\ntwo\n[log limit] 4 more log lines held back in the last 10 s"
        + " (at most 2 records of 3 lines each per window)\nfour\n", out());
  }

  @Test
  void aLineWrittenInPiecesIsOneLine() throws Exception {
    write("par");
    write("tial");
    assertEquals("", out());
    write(" line\n");
    assertEquals("partial line\n", out());
  }
}
