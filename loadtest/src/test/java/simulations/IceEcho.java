package simulations;

import static protocols.ice.IceDsl.ice;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import protocols.core.EchoSimulation;
import protocols.ice.IceDsl;
import servers.ice.IceEchoServer;

/** ZeroC Ice echo through the levels. */
public class IceEcho extends EchoSimulation {

  public IceEcho() {
    super("ice", IceEchoServer.class, p -> List.of());
    echo(name -> ice(name).hello(session -> IceDsl.order(ThreadLocalRandom.current().nextLong())),
        run.configure(ice));
  }
}
