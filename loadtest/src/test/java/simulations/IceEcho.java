package simulations;

import protocols.ice.lab.IceFramework;

/** ZeroC Ice echo through the levels. */
public class IceEcho extends EchoSimulation {
  public IceEcho() {
    super(IceFramework.FRAMEWORK);
  }
}
