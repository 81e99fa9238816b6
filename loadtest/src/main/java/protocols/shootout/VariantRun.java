package protocols.shootout;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.ArrayList;
import java.util.List;
import protocols.lab.EchoLevels;
import protocols.lab.EchoRun;
import protocols.lab.Trials;
import protocols.load.Populations;
import protocols.rpc.InvocationMode;
import protocols.rpc.RpcProtocol;

/**
 * A run of variants, each against its own server (the shootout's frameworks, the sweep's
 * configurations): their levels in each mode, one KO-share assertion per level, and the order the
 * levels run in, trials interleaved.
 */
public abstract class VariantRun {
  /** Every variant's server, in the order they started. */
  protected final List<EchoRun> runs = new ArrayList<>();
  private final List<Column> columns = new ArrayList<>();
  private final List<Assertion> assertions = new ArrayList<>();
  private PopulationBuilder populations;

  /** One variant's levels in one mode, and the protocol its calls go through. */
  record Column(EchoLevels levels, io.gatling.javaapi.core.ProtocolBuilder protocol) {
  }

  /** Measures {@code echo}'s levels in {@code mode}, with their assertions; returns the protocol they call through. */
  protected final RpcProtocol<?, ?> measure(EchoRun echo, InvocationMode mode, Trials trials) {
    EchoLevels levels = echo.levels(echo.name(), mode);
    RpcProtocol<?, ?> protocol = echo.protocol(mode);
    columns.add(new Column(levels, protocol));
    assertions.addAll(levels.assertions(trials));
    return protocol;
  }

  /** Orders every measured variant's levels (see {@link #steps}); call once every variant is measured. */
  protected final void sequence(List<Integer> levels, Trials trials) {
    populations = Populations.sequence(steps(columns, levels, trials));
  }

  /**
   * Measured once, each variant's levels one after the other; repeated, every variant's warm-up, then
   * level by level the rounds, each measuring every variant once in its shuffled order.
   */
  static List<PopulationBuilder> steps(List<Column> columns, List<Integer> levels, Trials trials) {
    List<PopulationBuilder> steps = new ArrayList<>();
    if (!trials.repeated()) {
      columns.forEach(c -> steps.addAll(c.levels().populations(c.protocol(), trials)));
      return steps;
    }
    columns.forEach(c -> steps.addAll(c.levels().warmups(c.protocol())));
    int k = 0;
    for (int i = 0; i < levels.size(); i++) {
      List<List<Column>> rounds = trials.rounds(columns, i);
      for (int round = 0; round < rounds.size(); round++) {
        for (Column c : rounds.get(round)) {
          steps.add(c.levels().closed(k++, levels.get(i), round + 1, c.protocol()));
        }
      }
    }
    System.out.println("trials: " + trials.repeat() + " of each level, in rounds of every variant shuffled with -Dseed="
        + trials.seed() + " (the same seed runs the same order)");
    return steps;
  }

  public final PopulationBuilder populations() {
    return populations;
  }

  /** One KO-share assertion per variant, mode and level (see {@link EchoLevels#assertions}). */
  public final List<Assertion> assertions() {
    return assertions;
  }

  /** Stops the embedded servers. */
  public final void stop() {
    runs.forEach(EchoRun::stop);
  }
}
