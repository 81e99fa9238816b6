package simulations;

import protocols.core.EchoSimulation;
import protocols.netty.NettyDsl;

/** The ceiling (Netty, length-prefixed frames, Kryo) through the levels. */
public class NettyEcho extends EchoSimulation {
  public NettyEcho() {
    super(NettyDsl.FRAMEWORK);
  }
}
