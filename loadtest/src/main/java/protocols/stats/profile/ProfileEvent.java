package protocols.stats.profile;

import java.util.Locale;

/** What {@code -Dprofile} samples: CPU time, allocations or lock contention. */
public enum ProfileEvent {
  CPU, ALLOC, LOCK;

  /** {@code -Dprofile}'s value: false (none, null), true or cpu, alloc, lock. */
  public static ProfileEvent parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "false", "off", "" -> null;
      case "true", "cpu" -> CPU;
      case "alloc" -> ALLOC;
      case "lock" -> LOCK;
      default -> throw new IllegalArgumentException("-Dprofile must be false, true (cpu), cpu, alloc or lock, got '"
          + value + "'");
    };
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
