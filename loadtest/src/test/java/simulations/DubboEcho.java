package simulations;

import protocols.core.EchoSimulation;
import protocols.dubbo.DubboDsl;

/** Dubbo echo through the levels; -Dserialization=hessian2|kryo|fastjson2 sets both sides. */
public class DubboEcho extends EchoSimulation {
  public DubboEcho() {
    super(DubboDsl.FRAMEWORK);
  }
}
