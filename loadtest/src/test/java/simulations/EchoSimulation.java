package simulations;

import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoLevels;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.Payload;
import protocols.lab.RpcFramework;
import protocols.lab.Trials;
import protocols.load.Populations;
import protocols.merge.LocalInjectors;
import protocols.rpc.InvocationMode;

/**
 * Base of the one-framework echo simulations: reads the -D parameters, starts the framework's server
 * (see {@link EchoRun}), sets up its levels ({@link EchoLevels}), and stops the server after the run.
 * With {@code -Dinjectors=N} it runs N injector JVMs instead and merges them ({@link LocalInjectors}).
 */
public abstract class EchoSimulation extends Simulation {
  private final EchoRun echo;

  protected EchoSimulation(RpcFramework<?, ?> framework) {
    LoadParams params = EchoRun.orExit(() -> LoadParams.fromSystemProperties().checkNames(Frameworks.run(
        getClass().getSimpleName(), Set.of(Parameters.Use.ECHO), List.of(framework), false)).validate());
    InvocationMode mode = EchoRun.modeOf(framework, params);
    // -Dpayload's one size; the injectors get -Dpayload as given and size their own calls.
    LoadParams sized = EchoRun.orExit(() -> Payload.one(params, getClass().getSimpleName()));
    if (params.injectors() > 1) {
      LocalInjectors.runAndExit(framework, params, getClass().getName()); // ends the JVM
    }
    echo = EchoRun.start(framework, sized, "target", new LabRun(sized));
    EchoLevels levels = echo.levels(null, mode);
    Trials trials = EchoRun.orExit(() -> Trials.of(params, 1));
    setUp(Populations.sequence(levels.populations(echo.protocol(mode), trials))).assertions(levels.assertions(trials));
  }

  @Override
  public void after() {
    echo.stop();
  }
}
