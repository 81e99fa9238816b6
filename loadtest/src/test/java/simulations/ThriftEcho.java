package simulations;

import protocols.core.EchoSimulation;
import protocols.thrift.ThriftDsl;

/** Thrift echo through the levels; -Dthrift.protocol=binary|compact sets both sides. */
public class ThriftEcho extends EchoSimulation {
  public ThriftEcho() {
    super(ThriftDsl.FRAMEWORK);
  }
}
