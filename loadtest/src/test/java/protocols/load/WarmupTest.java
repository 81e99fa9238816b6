package protocols.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gatling.core.session.Session$;
import io.gatling.javaapi.core.Session;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupTest {

  @Test
  void theAutomaticWarmUpCountsOnlyOkCalls() {
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      Warmup w = Warmup.of("warm-up (async)", new Warmup.Plan(true, Duration.ZERO, Duration.ofSeconds(60)));
      w.goOn(); // its clock starts with the first call
      Session user = new Session(Session$.MODULE$.apply("scn", 1L, loop));
      Session after = w.countsOk().apply(user.markAsFailed());
      // All windows summed: on a busy machine the second call may fall in a later second than the first.
      assertEquals(0, completions(w), "a KO is no completion: failures alone are not a stable throughput");
      assertFalse(after.isFailed(), "the user's next call is judged on its own");
      w.countsOk().apply(after);
      assertEquals(1, completions(w));
    } finally {
      loop.shutdownGracefully();
    }
  }

  private static long completions(Warmup w) {
    long sum = 0;
    for (int i = 0; i < w.windows().length(); i++) {
      sum += w.windows().get(i);
    }
    return sum;
  }
}
