package simulations;

import protocols.netty.lab.NettyFramework;

/** The ceiling (Netty, length-prefixed frames, Kryo) through the levels. */
public class NettyEcho extends EchoSimulation {
  public NettyEcho() {
    super(NettyFramework.FRAMEWORK);
  }
}
