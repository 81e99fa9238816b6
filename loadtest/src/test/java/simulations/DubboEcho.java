package simulations;

import static protocols.dubbo.DubboDsl.dubbo;

import contract.dubbo.DubboSerialization;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import protocols.core.EchoRun;
import protocols.dubbo.DubboDsl;
import servers.dubbo.DubboEchoServer;

/**
 * Dubbo echo through the concurrency levels. {@code -Dserialization=hessian2|kryo|fastjson2} sets
 * both sides; the other parameters are listed in the README.
 */
public class DubboEcho extends Simulation {
  private final String serialization = EchoRun.orExit(() -> protocols.core.LoadParams.fromSystemProperties()
      .choice("serialization", DubboSerialization.DEFAULT, DubboSerialization.SUPPORTED));

  private final EchoRun run = EchoRun.start("dubbo", DubboEchoServer.class.getName(),
      params -> List.of("--serialization", serialization));

  {
    setUp(run.populations(name -> dubbo(name).hello(session -> DubboDsl.order(ThreadLocalRandom.current().nextLong()))))
        .protocols(run.configure(dubbo.serialization(serialization)));
  }

  @Override
  public void after() {
    run.stop();
  }
}
