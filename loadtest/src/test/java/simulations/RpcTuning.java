package simulations;

import io.gatling.javaapi.core.Simulation;
import protocols.shootout.Tuning;

/**
 * Each framework in configurations of its own knobs, one knob at a time around the base, then
 * tuning.html/json/csv in the run folder. {@code -Dframeworks=thrift}, {@code -Dknobs=thrift.protocol};
 * see docs/tuning.md.
 */
public class RpcTuning extends Simulation {
  private final Tuning tuning = new Tuning("RpcTuning");

  {
    setUp(tuning.populations()).assertions(tuning.assertions());
  }

  @Override
  public void after() {
    tuning.stop();
  }
}
