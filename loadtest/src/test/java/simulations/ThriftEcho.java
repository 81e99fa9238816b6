package simulations;

import protocols.thrift.lab.ThriftFramework;

/** Thrift echo through the levels; -Dthrift.protocol=binary|compact sets both sides. */
public class ThriftEcho extends EchoSimulation {
  public ThriftEcho() {
    super(ThriftFramework.FRAMEWORK);
  }
}
