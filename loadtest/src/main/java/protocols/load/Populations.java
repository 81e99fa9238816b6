package protocols.load;

import io.gatling.javaapi.core.PopulationBuilder;
import java.util.List;

/** Populations run one after the other. */
public final class Populations {
  private Populations() {}

  /** {@code steps} in turn: each starts when the previous one has finished ({@code andThen}). */
  public static PopulationBuilder sequence(List<PopulationBuilder> steps) {
    PopulationBuilder chain = steps.get(steps.size() - 1);
    for (int i = steps.size() - 2; i >= 0; i--) {
      chain = steps.get(i).andThen(chain);
    }
    return chain;
  }
}
