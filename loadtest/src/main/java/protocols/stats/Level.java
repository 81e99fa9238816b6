package protocols.stats;

import protocols.rpc.InvocationMode;

/**
 * What a recorded request is, as a value: a closed level of N clients, a rate level of R calls/s, a
 * warm-up, or the ramp or settle before a level, of one framework (in a run of several) and mode, or those of
 * its calls that fell in an injected fault's window. Its request name, the one Gatling and the
 * summary show, is made here and only here ({@link #name}), never parsed back but from summaries
 * written before levels were recorded ({@link Summaries}).
 *
 * @param framework the framework, when the run has several (its name is then the request name's prefix); else null
 * @param call what the level calls: {@code echo} in the lab's levels, the request's own name in a simulation's
 * @param mode the invocation model of the lab's levels; null for a simulation's own open-model levels
 * @param kind closed, rate, warm-up, its rehearsal of a level's start, a ramp or a settle
 * @param size clients or calls/s; 0 for a warm-up or rehearsal
 * @param duringFault the calls of the level that started in an injected fault's window
 * @param trial which of a repeated level's trials (1, 2, ...; see {@code -Drepeat}); 0 when it runs once
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record Level(String framework, String call, InvocationMode mode, Kind kind, int size, boolean duringFault,
                    int trial) {
  /** The words after a level's name for the calls of its fault window. */
  public static final String DURING_FAULT = " during fault";

  /** What sort of level. */
  public enum Kind {
    CLOSED, RATE, WARMUP, REHEARSAL, RAMP_TO_CLIENTS, RAMP_TO_RATE, SETTLE_AT_CLIENTS;

    /** Whether a level of this kind is a measurement (a warm-up, a ramp and a settle are not). */
    public boolean measured() {
      return this == CLOSED || this == RATE;
    }
  }

  /** The lab's closed level: {@code [framework ]echo N clients (mode)}. */
  public static Level closed(String framework, int clients, InvocationMode mode) {
    return new Level(framework, "echo", mode, Kind.CLOSED, clients, false, 0);
  }

  /** The lab's rate level: {@code [framework ]echo R calls/s (mode)}. */
  public static Level rate(String framework, int callsPerSecond, InvocationMode mode) {
    return new Level(framework, "echo", mode, Kind.RATE, callsPerSecond, false, 0);
  }

  /** The lab's warm-up: {@code [framework ]warm-up (mode)}. */
  public static Level warmup(String framework, InvocationMode mode) {
    return new Level(framework, "echo", mode, Kind.WARMUP, 0, false, 0);
  }

  /** The warm-up's rehearsal of a level's start: {@code [framework ]rehearsal (mode)}. */
  public static Level rehearsal(String framework, InvocationMode mode) {
    return new Level(framework, "echo", mode, Kind.REHEARSAL, 0, false, 0);
  }

  /** The ramp before this level: {@code ramp to N clients (mode)} or {@code ramp to R calls/s (mode)}. */
  public Level ramp() {
    return new Level(framework, call, mode, kind == Kind.RATE ? Kind.RAMP_TO_RATE : Kind.RAMP_TO_CLIENTS, size,
        duringFault, trial);
  }

  /** The settle before this closed level's measured calls: {@code settle at N clients (mode)}. */
  public Level settle() {
    return new Level(framework, call, mode, Kind.SETTLE_AT_CLIENTS, size, duringFault, trial);
  }

  /** The calls of this level that started in an injected fault's window. */
  public Level inFaultWindow() {
    return new Level(framework, call, mode, kind, size, true, trial);
  }

  /** A simulation's own open-model level of {@code call} at {@code callsPerSecond}: {@code call R calls/s}. */
  public static Level rateOf(String call, int callsPerSecond) {
    return new Level(null, call, null, Kind.RATE, callsPerSecond, false, 0);
  }

  /** Whether its figures are a measurement: not a warm-up, a ramp or a settle. */
  public boolean measured() {
    return kind.measured();
  }

  public boolean sentAtRate() {
    return kind == Kind.RATE || kind == Kind.RAMP_TO_RATE;
  }

  /** The level with no fault window: the row its fault window's calls were taken from. */
  public Level outsideFault() {
    return new Level(framework, call, mode, kind, size, false, trial);
  }

  /** Trial {@code n} of this level (1, 2, ...): {@code echo 20 clients (async) trial 2}. */
  public Level trial(int n) {
    return new Level(framework, call, mode, kind, size, duringFault, n);
  }

  /** The level its trials are of: this one with no trial number. */
  public Level overTrials() {
    return new Level(framework, call, mode, kind, size, duringFault, 0);
  }

  /** The request name: the one place it is made. */
  public String name() {
    String prefix = framework == null ? "" : framework + " ";
    String tag = mode == null ? "" : " (" + mode.label() + ")";
    String what = switch (kind) {
      case CLOSED -> prefix + call + " " + size + " clients";
      case RATE -> prefix + call + " " + size + " calls/s";
      case WARMUP -> prefix + "warm-up";
      case REHEARSAL -> prefix + "rehearsal";
      case RAMP_TO_CLIENTS -> (mode == null ? call + " " : prefix) + "ramp to " + size + " clients";
      case RAMP_TO_RATE -> (mode == null ? call + " " : prefix) + "ramp to " + size + " calls/s";
      case SETTLE_AT_CLIENTS -> (mode == null ? call + " " : prefix) + "settle at " + size + " clients";
    };
    return what + tag + (trial > 0 ? " trial " + trial : "") + (duringFault ? DURING_FAULT : "");
  }

  /** What a chart's legend says of it, beside its group's title: {@code 20 clients}, {@code warm-up}. */
  public String label() {
    return switch (kind) {
      case CLOSED -> size + " clients";
      case RATE -> size + " calls/s";
      case WARMUP -> "warm-up";
      case REHEARSAL -> "rehearsal";
      case RAMP_TO_CLIENTS -> "ramp to " + size + " clients";
      case RAMP_TO_RATE -> "ramp to " + size + " calls/s";
      case SETTLE_AT_CLIENTS -> "settle at " + size + " clients";
    };
  }

  /** The charts' group: its framework and mode ({@code dubbo async}, or {@code async}); null for a simulation's own. */
  public String group() {
    return mode == null ? null : ((framework == null ? "" : framework + " ") + mode.label());
  }

  @Override
  public String toString() {
    return name();
  }
}
