package protocols.core;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

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

  /** This JVM's identity from its -D parameters: injector 0/1 when {@code -Dinjector} is not given. */
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
    return new Injector(index, count, startAt(params));
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

  /** Looked up only for the summary ({@link #asMap}): the host name can take a DNS lookup. */
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

  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", index);
    m.put("count", count);
    m.put("host", hostName());
    m.put("pid", ProcessHandle.current().pid());
    startAt.ifPresent(at -> {
      m.put("startAt", at.toString());
      m.put("startAtEpochMillis", at.toEpochMilli());
    });
    return m;
  }
}
