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
      assertEquals(0, w.windows().get(0), "a KO is no completion: failures alone are not a stable throughput");
      assertFalse(after.isFailed(), "the user's next call is judged on its own");
      w.countsOk().apply(after);
      assertEquals(1, w.windows().get(0));
    } finally {
      loop.shutdownGracefully();
    }
  }
}
