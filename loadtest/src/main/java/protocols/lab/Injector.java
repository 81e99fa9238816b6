package protocols.lab;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import protocols.stats.RunInfo;

/**
 * Which injector of a multi-injector run this JVM is ({@code -Dinjector=i/N}, i from 0 as a Kubernetes
 * completion index) and when its first level starts ({@code -DstartAt}), so that N injectors run the
 * same level at the same time and their summaries merge (see {@code protocols.merge}).
 */
public record Injector(int index, int count, Optional<Instant> startAt) {
  /** A {@code -DstartAt} further in the past than this is an error: the injectors could not start together. */
  public static final Duration START_TOLERANCE = Duration.ofSeconds(5);
  /** A {@code -DstartAt} further ahead than this is a typo rather than a plan. */
  static final Duration START_HORIZON = Duration.ofHours(24);

  /**
   * This JVM's identity from its -D parameters: injector 0/1 when {@code -Dinjector} is not given. With
   * several injectors, the parameters they cannot share are refused.
   */
  public static Injector of(LoadParams params) {
    int index = 0;
    int count = 1;
    String v = params.string("injector", "");
    if (!v.isEmpty()) {
      String[] parts = v.split("/", -1);
      try {
        index = Integer.parseInt(parts[0].trim());
        count = parts.length == 2 ? Integer.parseInt(parts[1].trim()) : -1;
      } catch (NumberFormatException e) {
        count = -1;
      }
      if (count < 1 || count > 1_000 || index < 0 || index >= count) {
        throw new IllegalArgumentException("-Dinjector must be i/N with 0 <= i < N <= 1000 (i is the Kubernetes"
            + " completion index), e.g. 0/2; got '" + v + "'");
      }
    }
    Injector injector = new Injector(index, count, startAt(params));
    boolean several = count > 1 || params.injectors() > 1;
    if (several && params.string("rates", "").equals("auto")) {
      throw new IllegalArgumentException("-Drates=auto searches each injector's own capacity, so injectors would run"
          + " different levels; give a list of rates (each injector offers each rate)");
    }
    if (several && !params.ramp().isZero()) {
      throw new IllegalArgumentException("-Dramp with several injectors is not supported: Gatling starts each ramp on"
          + " its own JVM's clock, so their ramps would not line up; leave it out");
    }
    if (several && params.string("settle", "").equals("auto")) {
      throw new IllegalArgumentException("-Dsettle=auto settles each injector on its own clock, so their levels would"
          + " not line up; give a number of seconds (with several injectors the default is "
          + protocols.load.Warmup.SETTLE_WINDOWS + ")");
    }
    if (several && !params.faults().isEmpty()) {
      throw new IllegalArgumentException("-Dfaults acts on one injector's embedded server; leave it out with several"
          + " injectors");
    }
    return injector;
  }

  /** {@code -DstartAt}: an ISO-8601 time ({@code 2026-11-30T21:00:00Z}, or with an offset) or epoch milliseconds. */
  static Optional<Instant> startAt(LoadParams params) {
    String v = params.string("startAt", "");
    if (v.isEmpty()) {
      return Optional.empty();
    }
    Instant at;
    try {
      at = v.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(v))
          : OffsetDateTime.parse(v).toInstant();
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException("-DstartAt must be an ISO-8601 time such as 2026-11-30T21:00:00Z or epoch"
          + " milliseconds; got '" + v + "'");
    }
    return Optional.of(at);
  }

  /** Checked before the run: a {@code -DstartAt} long past or too far ahead is an error. */
  public Injector checkStartAt(Instant now) {
    if (startAt.isEmpty()) {
      return this;
    }
    Instant at = startAt.get();
    String v = at.toString();
    if (at.isBefore(now.minus(START_TOLERANCE))) {
      throw new IllegalArgumentException("-DstartAt=" + v + " was " + Duration.between(at, now).toSeconds()
          + " s ago (more than the " + START_TOLERANCE.toSeconds() + " s tolerance): this injector cannot start with"
          + " the others; give a later time");
    }
    if (at.isAfter(now.plus(START_HORIZON))) {
      throw new IllegalArgumentException("-DstartAt=" + v + " is more than " + START_HORIZON.toHours()
          + " h ahead; give a nearer time");
    }
    return this;
  }

  /** Looked up only for the summary ({@link #info}): the host name can take a DNS lookup. */
  private static String hostName() {
    String env = System.getenv("HOSTNAME"); // the pod's name on Kubernetes
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  /** {@code 0/2}, as given. */
  public String label() {
    return index + "/" + count;
  }

  /** As the summary holds it; the host name is looked up now. */
  public RunInfo.Injector info() {
    return new RunInfo.Injector(index, count, hostName(), ProcessHandle.current().pid(),
        startAt.map(Instant::toString).orElse(null), startAt.map(Instant::toEpochMilli).orElse(null));
  }
}
