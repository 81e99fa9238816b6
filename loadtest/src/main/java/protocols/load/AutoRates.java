package protocols.load;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import protocols.rpc.CallObserver;
import protocols.stats.LatencyRecorder;
import protocols.stats.Saturation;
import protocols.stats.RequestStats;

/**
 * {@code -Drates=auto}: the next rate from the last level's verdict. Doubling from the start rate
 * until a level saturates, then halving the gap between the highest unsaturated and the lowest
 * saturated rate until it is within {@link #RESOLUTION} of the former; bounded by the number of levels.
 */
final class AutoRates {
  /** The search stops when the saturated rate is within this share above the highest unsaturated one. */
  static final double RESOLUTION = 0.125;

  private final String label;
  private final int start;
  private final List<String> levels = new ArrayList<>();
  private Integer highestOk;
  private Integer lowestSaturated;
  private String lastName;
  private int lastRate;
  private boolean finished;

  AutoRates(String label, int start) {
    this.label = label;
    this.start = start;
  }

  /** The next rate after judging the level that just ended; empty when the search is over. */
  synchronized OptionalInt next(CallObserver observer) {
    LatencyRecorder recorder = observer.unwrap(LatencyRecorder.class).orElse(null);
    if (recorder == null) {
      return stop("this run records no figures to judge a level by (no µs recorder)");
    }
    if (finished) {
      return OptionalInt.empty();
    }
    if (lastName != null) {
      Saturation verdict = recorder.stats(lastName).filter(RequestStats::isOpen)
          .map(s -> SaturationCheck.of(s, null)).orElse(null);
      if (verdict == null) {
        return stop("the level at " + lastRate + " calls/s measured nothing");
      }
      judged(lastRate, verdict.saturated());
      System.out.println("auto rates, " + label + ": " + lastRate + " calls/s "
          + (verdict.saturated() ? "saturated (" + verdict.limit() + ")" : "kept up"));
    }
    OptionalInt next = nextRate();
    if (next.isEmpty()) {
      return stop(lowestSaturated == null ? "no level saturated" : highestOk == null
          ? "the start rate " + start + " calls/s already saturated: lower -DrateStart"
          : "highest unsaturated " + highestOk + " calls/s, saturated at " + lowestSaturated);
    }
    return next;
  }

  /** Records the verdict on a rate. */
  void judged(int rate, boolean saturated) {
    if (saturated) {
      lowestSaturated = lowestSaturated == null ? rate : Math.min(lowestSaturated, rate);
    } else {
      highestOk = highestOk == null ? rate : Math.max(highestOk, rate);
    }
  }

  /** The rate the search tries next, from the verdicts so far. */
  OptionalInt nextRate() {
    if (lowestSaturated == null) {
      return OptionalInt.of(highestOk == null ? start : (int) Math.min(10_000_000L, 2L * highestOk));
    }
    if (highestOk == null || lowestSaturated - highestOk <= RESOLUTION * highestOk) {
      return OptionalInt.empty();
    }
    int mid = (highestOk + lowestSaturated) / 2;
    int rounded = roundTo2Digits(mid);
    return OptionalInt.of(rounded > highestOk && rounded < lowestSaturated ? rounded : mid);
  }

  void started(String name, int rate) {
    lastName = name;
    lastRate = rate;
    levels.add(name);
  }

  private OptionalInt stop(String why) {
    if (!finished) {
      finished = true;
      System.out.println("auto rates, " + label + ": done after " + levels.size() + " levels: " + why);
    }
    return OptionalInt.empty();
  }

  static int roundTo2Digits(int v) {
    if (v < 100) {
      return v;
    }
    int magnitude = (int) Math.pow(10, (int) Math.floor(Math.log10(v)) - 1);
    return Math.round((float) v / magnitude) * magnitude;
  }
}
