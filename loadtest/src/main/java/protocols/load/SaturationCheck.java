package protocols.load;

import static protocols.stats.Numbers.fmt;
import static protocols.stats.Saturation.INJECTOR;
import static protocols.stats.Saturation.SERVER;

import protocols.stats.CpuSampler;
import protocols.stats.Numbers;
import protocols.stats.Saturation;
import protocols.stats.RequestStats;
import protocols.stats.OpenStats;

/**
 * Whether an open-model level kept up with its offered rate, and if not, what held it back as far as
 * the run's own figures tell: a call's response time is its send lag plus its service time, so when
 * sends were late by more than calls took the injector was the limit, and otherwise the server (or
 * the framework's client): replies falling behind, calls piling up to the in-flight cap.
 */
public final class SaturationCheck {
  /** Achieved OK calls/s may fall this far below the offered rate before the level counts as saturated. */
  public static final double RATE_TOLERANCE = 0.05;
  /**
   * Half the sends later than this mean the injector fell behind its schedule. A sender that keeps
   * up is late by its event loop's timer wake-up (about 100 µs on the 2-core VMs measured, p99 a few
   * ms with their hiccups, which the service times show too); one that cannot keep up is late on
   * most sends, and ever later.
   */
  static final long MAX_LAG_P50_MICROS = 1_000;
  /** More calls than this share failed (timeouts among them): the level did not serve what it was offered. */
  static final double MAX_KO_SHARE = 0.01;
  /** Idle below this share of the machine: injector and server were fighting over CPU. */
  static final double MIN_IDLE = 0.05;

  private SaturationCheck() {}

  /** The verdict on an open-model level; {@code cpu} may be null (not sampled). */
  public static Saturation of(RequestStats r, CpuSampler.Shares cpu) {
    OpenStats o = r.open();
    double offered = o.offered();
    double achieved = r.okThroughput();
    boolean shortOfRate = achieved < (1 - RATE_TOLERANCE) * offered;
    boolean lagging = o.lagP50() > MAX_LAG_P50_MICROS;
    boolean dropped = o.dropped() > 0;
    double koShare = r.count() == 0 ? 0 : (double) r.ko() / r.count();
    boolean failing = koShare > MAX_KO_SHARE;
    String figures = "achieved " + fmt(achieved, 0) + " OK calls/s of " + fmt(offered, 0) + " offered ("
        + (offered > 0 ? fmt(100 * achieved / offered, 0) : "–") + "%), " + r.ko() + " KO ("
        + fmt(100 * koShare, 1) + "%), " + o.dropped() + " dropped at the cap of "
        + o.maxInFlight() + " in flight, send lag p50 " + o.lagP50() + " µs (p99 " + o.lagP99() + ", max " + o.lagMax()
        + "), service time p99 " + r.p99() + " µs";
    String machine = cpu != null && cpu.idle() < MIN_IDLE ? "; the machine's CPU was full (injector "
        + Numbers.pct(cpu.injector()) + ", servers " + Numbers.pct(cpu.servers()) + ", idle " + Numbers.pct(cpu.idle())
        + "): on one machine either side may have starved the other" : "";
    if (!shortOfRate && !lagging && !dropped && !failing) {
      return new Saturation(false, null, figures);
    }
    if (o.unsent() > 0) {
      return new Saturation(true, INJECTOR, figures + ": " + o.unsent() + " calls due were never sent ("
          + o.unsentReason() + ")");
    }
    // Response time is send lag plus service time: the larger half is where the time went.
    if (lagging && o.lagP50() >= r.p50()) {
      return new Saturation(true, INJECTOR, figures + ": sends fell behind the schedule (median lag " + o.lagP50()
          + " µs, at least the median service time, " + r.p50() + " µs), so the injector could not offer this rate"
          + (cpu != null ? " (injector CPU " + Numbers.pct(cpu.injector()) + " of the machine)" : "") + machine);
    }
    if (failing && !shortOfRate && !lagging && !dropped) {
      return new Saturation(true, SERVER, figures + ": " + fmt(100 * koShare, 1) + "% of the calls failed (over "
          + fmt(100 * MAX_KO_SHARE, 0) + "%), so the server (or the framework's client) did not serve this rate"
          + machine);
    }
    return new Saturation(true, SERVER, figures + ": replies did not keep up (median service time " + r.p50()
        + " µs against a median send lag of " + o.lagP50() + " µs), so the server (or the framework's client) is"
        + " the limit" + machine);
  }
}
