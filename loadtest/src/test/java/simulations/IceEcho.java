package simulations;

import protocols.core.EchoSimulation;
import protocols.ice.IceFramework;

/** ZeroC Ice echo through the levels. */
public class IceEcho extends EchoSimulation {
  public IceEcho() {
    super(new IceFramework());
  }
}
