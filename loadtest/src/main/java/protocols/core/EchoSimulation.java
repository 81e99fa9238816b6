package protocols.core;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.function.Function;

/**
 * Base of the echo simulations: starts the run's server (see {@link EchoRun}) when constructed and
 * stops it after the run. A subclass names its framework, then calls {@link #echo} once.
 */
public abstract class EchoSimulation extends Simulation {
  protected final EchoRun run;

  /**
   * @param serverArgs the embedded server's framework flags, from the -D parameters
   */
  protected EchoSimulation(String framework, Class<?> serverMain, Function<LoadParams, List<String>> serverArgs) {
    this.run = EchoRun.start(framework, serverMain.getName(), serverArgs);
  }

  /** Sets up the levels with {@code call} building each request, against {@code protocol}. */
  protected final void echo(Function<String, ActionBuilder> call, ProtocolBuilder protocol) {
    setUp(run.populations(call)).protocols(protocol);
  }

  @Override
  public void after() {
    run.stop();
  }
}
