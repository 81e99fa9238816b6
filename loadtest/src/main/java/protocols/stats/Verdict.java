package protocols.stats;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a comparison may say of two figures: a direction only where the interval shows one. */
public enum Verdict {
  FASTER("faster"),
  SLOWER("slower"),
  /** The interval contains no change, or only changes within the noise floor. */
  NO_DIFFERENCE("no difference shown"),
  /** One side's figure is not to be trusted (its level was warned of): no word either way. */
  NOT_JUDGED("not judged");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  @JsonValue
  public String label() {
    return label;
  }

  @Override
  public String toString() {
    return label;
  }
}
