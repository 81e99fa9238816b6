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

/** Debian's headless Chromium, to see a generated page as a person does: its DOM after rendering, or a screenshot. */
final class Chromium {
  private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");

  private Chromium() {}

  /** Runs Chromium headless with {@code args}; returns what it printed (the DOM with --dump-dom). */
  static String run(String... args) throws Exception {
    assertTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is needed (.ci/run installs it)");
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("chromium", ".out");
    Process p = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium finished in time");
    assertEquals(0, p.exitValue(), "chromium exit code");
    return Files.readString(out, StandardCharsets.UTF_8);
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
