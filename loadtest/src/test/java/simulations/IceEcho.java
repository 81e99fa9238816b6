package simulations;

import protocols.core.EchoSimulation;
import protocols.ice.IceDsl;

/** ZeroC Ice echo through the levels. */
public class IceEcho extends EchoSimulation {
  public IceEcho() {
    super(IceDsl.FRAMEWORK);
  }
}
