package simulations;

import protocols.dubbo.lab.TripleFramework;

/** Dubbo over Triple (its gRPC-compatible protocol) echo through the levels. */
public class TripleEcho extends EchoSimulation {
  public TripleEcho() {
    super(TripleFramework.FRAMEWORK);
  }
}
