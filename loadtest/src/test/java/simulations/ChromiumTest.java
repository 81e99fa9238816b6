package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Without a browser the page checks skip with one line on a developer's machine, and fail under CI. */
class ChromiumTest {

  @Test
  void pageChecksRunWithABrowserSkipWithoutOneAndAreRequiredUnderCi() {
    assertEquals(Chromium.Decision.RUN, Chromium.decide(true, null));
    assertEquals(Chromium.Decision.RUN, Chromium.decide(true, "true"));
    assertEquals(Chromium.Decision.SKIP, Chromium.decide(false, null));
    assertEquals(Chromium.Decision.SKIP, Chromium.decide(false, ""));
    assertEquals(Chromium.Decision.SKIP, Chromium.decide(false, "false"));
    assertEquals(Chromium.Decision.FAIL, Chromium.decide(false, "true"), "GitHub Actions sets CI=true");
    assertEquals(Chromium.Decision.FAIL, Chromium.decide(false, "1"));
  }
}
