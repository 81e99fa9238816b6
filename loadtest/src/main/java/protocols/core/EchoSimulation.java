package protocols.core;

import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Set;

/**
 * Base of the one-framework echo simulations: reads the -D parameters, starts the framework's server
 * (see {@link EchoRun}), sets up the levels, and stops the server after the run.
 */
public abstract class EchoSimulation extends Simulation {
  private final EchoRun run;

  protected EchoSimulation(RpcFramework<?, ?> framework) {
    LoadParams params = EchoRun.orExit(() -> LoadParams.fromSystemProperties().checkNames(protocols.Frameworks.run(
        getClass().getSimpleName(), Set.of(Parameters.Use.ECHO), List.of(framework), false)).validate());
    InvocationMode mode = EchoRun.orExit(params::mode);
    if (params.injectors() > 1) {
      protocols.merge.LocalInjectors.runAndExit(framework, params, getClass().getName()); // ends the JVM
    }
    run = EchoRun.start(framework, params, "target");
    setUp(EchoRun.sequence(run.populations("", mode, null))).protocols(run.protocol(mode))
        .assertions(run.assertions("", mode));
  }

  @Override
  public void after() {
    run.stop();
  }
}
