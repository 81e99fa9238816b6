package simulations;

import static protocols.thrift.ThriftDsl.thrift;

import contract.thrift.WireProtocols;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import protocols.core.EchoSimulation;
import protocols.core.LoadParams;
import protocols.thrift.ThriftDsl;
import servers.thrift.ThriftEchoServer;

/** Thrift echo through the levels; {@code -Dthrift.protocol=binary|compact} sets both sides. */
public class ThriftEcho extends EchoSimulation {

  public ThriftEcho() {
    super("thrift", ThriftEchoServer.class, p -> List.of("--protocol", wireProtocol(p)));
    echo(name -> thrift(name).hello(session -> ThriftDsl.order(ThreadLocalRandom.current().nextLong())),
        run.configure(thrift.wireProtocol(wireProtocol(run.params()))));
  }

  private static String wireProtocol(LoadParams params) {
    return params.choice("thrift.protocol", WireProtocols.DEFAULT, WireProtocols.SUPPORTED);
  }
}
