package simulations;

import io.gatling.javaapi.core.Simulation;
import java.util.Set;
import protocols.shootout.Shootout;
import protocols.lab.Parameters;
import protocols.lab.EchoRun;
import protocols.lab.LoadParams;
import protocols.nightly.Nightly;

/**
 * The nightly run: the shootout, then its gates against the checked-in limits and the previous
 * nights (-Dhistory), the JUnit XML and trend.html; a failed gate exits with status 2. See the
 * docs/nightly.md.
 */
public class RpcNightly extends Simulation {
  private final Shootout shootout = new Shootout("RpcNightly",
      Set.of(Parameters.Use.SHOOTOUT, Parameters.Use.NIGHTLY));

  {
    LoadParams params = LoadParams.fromSystemProperties();
    shootout.run().onSummaryWritten(EchoRun.orExit(() -> new Nightly(shootout.frameworks(), params)));
    setUp(shootout.populations()).assertions(shootout.assertions());
  }

  @Override
  public void after() {
    shootout.stop();
  }
}
