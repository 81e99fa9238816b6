package simulations;

import protocols.core.EchoSimulation;
import protocols.netty.NettyFramework;

/** The ceiling (Netty, length-prefixed frames, Kryo) through the levels. */
public class NettyEcho extends EchoSimulation {
  public NettyEcho() {
    super(new NettyFramework());
  }
}
