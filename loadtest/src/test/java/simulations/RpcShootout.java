package simulations;

import io.gatling.javaapi.core.Simulation;
import java.util.Set;
import protocols.shootout.Shootout;
import protocols.lab.Parameters;

/**
 * Every framework and the ceiling, one after the other, then comparison.html/json/csv in the run
 * folder. {@code -Dframeworks=dubbo,grpc}, {@code -Dmode=async|sync|both}, {@code -Dplain=true},
 * {@code -Dtarget.<framework>=host:port}; see docs/shootout.md.
 */
public class RpcShootout extends Simulation {
  private final Shootout shootout = new Shootout("RpcShootout", Set.of(Parameters.Use.SHOOTOUT));

  {
    setUp(shootout.populations()).assertions(shootout.assertions());
  }

  @Override
  public void after() {
    shootout.stop();
  }
}
