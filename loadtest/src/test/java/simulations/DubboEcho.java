package simulations;

import static protocols.dubbo.DubboDsl.dubbo;

import contract.dubbo.DubboSerialization;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import protocols.core.EchoSimulation;
import protocols.core.LoadParams;
import protocols.dubbo.DubboDsl;
import servers.dubbo.DubboEchoServer;

/** Dubbo echo through the levels; {@code -Dserialization=hessian2|kryo|fastjson2} sets both sides. */
public class DubboEcho extends EchoSimulation {

  public DubboEcho() {
    super("dubbo", DubboEchoServer.class, p -> List.of("--serialization", serialization(p)));
    echo(name -> dubbo(name).hello(session -> DubboDsl.order(ThreadLocalRandom.current().nextLong())),
        run.configure(dubbo.serialization(serialization(run.params()))));
  }

  private static String serialization(LoadParams params) {
    return params.choice("serialization", DubboSerialization.DEFAULT, DubboSerialization.SUPPORTED);
  }
}
