package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Debian's headless Chromium, to see a generated page as a person does: its DOM after rendering, or a
 * screenshot. Without it the page checks are skipped with one line, unless {@code CI} is set: there
 * they are required ({@code .ci/run} installs it).
 */
final class Chromium {
  private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  static final String MISSING = "page checks skipped: no Chromium at " + CHROMIUM
      + " (Debian: apt-get install chromium); with CI set they are required";
  private static final AtomicBoolean SAID = new AtomicBoolean();

  private Chromium() {}

  /** Whether the page checks run: with a browser; without one, not, unless CI requires them. */
  enum Decision { RUN, SKIP, FAIL }

  static Decision decide(boolean installed, String ci) {
    return installed ? Decision.RUN : ci != null && !ci.isBlank() && !ci.equals("false") ? Decision.FAIL
        : Decision.SKIP;
  }

  /** True when the page checks can run here; skipped with one line (printed once), or failed under CI. */
  static boolean available() {
    Decision d = decide(Files.isExecutable(CHROMIUM), System.getenv("CI"));
    assertTrue(d != Decision.FAIL, "Debian's chromium is needed: CI is set, and " + CHROMIUM + " is missing"
        + " (.ci/run installs it)");
    if (d == Decision.SKIP && SAID.compareAndSet(false, true)) {
      System.out.println(MISSING);
    }
    return d == Decision.RUN;
  }

  /** Runs Chromium headless with {@code args}; returns what it printed (the DOM with --dump-dom). */
  static String run(String... args) throws Exception {
    assertTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is needed (.ci/run installs it)");
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("chromium", ".out");
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(out.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      boolean finished = p.waitFor(90, TimeUnit.SECONDS);
      if (!finished) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      assertTrue(finished, "chromium finished in time");
      assertEquals(0, p.exitValue(), "chromium exit code");
      return Files.readString(out, StandardCharsets.UTF_8);
    } finally {
      protocols.rpc.TempFolders.delete(profile); // nothing of a test stays in /tmp
      Files.deleteIfExists(out);
    }
  }

  /** How many pixels (every other row and column) have exactly {@code rgb}. */
  static int pixels(BufferedImage image, int rgb) {
    int n = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
          n++;
        }
      }
    }
    return n;
  }
}
