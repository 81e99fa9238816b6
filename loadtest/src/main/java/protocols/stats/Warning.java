package protocols.stats;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** One validity warning: which request (level), what kind, and the sentence a reader sees. */
public record Warning(String request, Kind kind, String message) {

  /**
   * What a warning is about. Its {@link #id()} is what rpc-summary.json, the pages' {@code data-kind} and the
   * console's {@code WARNING [id]} carry.
   */
  public enum Kind {
    // a level of one run
    KO("ko"), BUSY_MACHINE("busy-machine"), STALL("stall"), TOO_SHORT("too-short"), NOT_STEADY("not-steady"),
    LATENCY_NOT_STEADY("latency-not-steady"), INJECTOR_SATURATED("injector-saturated"),
    SENDER_STOPPED("sender-stopped"),
    // what came before a level
    WARM_UP("warm-up"), NOT_SETTLED("not-settled"),
    // faults
    NO_RECOVERY("no-recovery"), RECOVERY_NOT_SEEN("recovery-not-seen"),
    // the shootout
    PLAIN_DRIVER("plain-driver"),
    // several injectors merged
    MISSING_LEVEL("missing-level"), INJECTOR_SKEW("injector-skew"), LATE_START("late-start"),
    NO_COMMON_WINDOW("no-common-window"), INJECTORS("injectors"), INTERRUPTED("interrupted"),
    SETTINGS_DIFFER("settings-differ");

    private final String id;

    Kind(String id) {
      this.id = id;
    }

    @JsonValue
    public String id() {
      return id;
    }

    /** Reads an id back from a summary file. */
    @JsonCreator
    public static Kind of(String id) {
      return Arrays.stream(values()).filter(k -> k.id.equals(id)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no warning kind '" + id + "'"));
    }

    @Override
    public String toString() {
      return id;
    }
  }
}
