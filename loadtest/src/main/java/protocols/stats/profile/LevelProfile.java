package protocols.stats.profile;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Map;

/**
 * One side's profile of one measured level: its flame graph (a path relative to the run's folder), its
 * samples, and the breakdown as shares (adding up to 1) and as CPU µs per call (the side's CPU per OK
 * call split by the shares; null where the CPU was not sampled or is not CPU: alloc and lock profiles).
 */
public record LevelProfile(String request, Side side, String flameGraph, long samples, Map<String, Double> shares,
                           Map<String, Double> cpuUsPerCall, Double harnessShare) {

  /**
   * Whose samples: the injector's JVM (Gatling, the lab, the client), the level's server JVMs, or the
   * plain driver's JVM (the same client without Gatling: the reference the injector is read against).
   */
  public enum Side {
    INJECTOR("injector"), SERVER("server"), PLAIN("plain");

    private final String label;

    Side(String label) {
      this.label = label;
    }

    @JsonValue
    public String label() {
      return label;
    }
  }

  /** The profile of {@code breakdown}; {@code cpuUsPerCall} the side's, or null. */
  public static LevelProfile of(String request, Side side, String flameGraph, Breakdown breakdown,
                                Double cpuUsPerCall) {
    Map<String, Double> shares = breakdown.sharesByLabel();
    Map<String, Double> perCall = null;
    if (cpuUsPerCall != null && breakdown.total() > 0) {
      perCall = new java.util.LinkedHashMap<>();
      for (Map.Entry<String, Double> e : shares.entrySet()) {
        perCall.put(e.getKey(), e.getValue() * cpuUsPerCall);
      }
    }
    Double harness = side == Side.INJECTOR && breakdown.total() > 0
        ? (double) (breakdown.samples(Component.GATLING) + breakdown.samples(Component.LAB)) / breakdown.total()
        : null;
    return new LevelProfile(request, side, flameGraph, breakdown.total(), shares, perCall, harness);
  }
}
