package simulations;

import protocols.dubbo.lab.DubboFramework;

/** Dubbo echo through the levels; -Dserialization=hessian2|kryo|fastjson2 sets both sides. */
public class DubboEcho extends EchoSimulation {
  public DubboEcho() {
    super(DubboFramework.FRAMEWORK);
  }
}
