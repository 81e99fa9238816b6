package protocols.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How a run's clients and servers talk ({@code -Dtls}): plaintext, TLS, or mutual TLS (client certificates). */
public enum TlsMode {
  PLAINTEXT("false", "plaintext"),
  TLS("true", "tls"),
  MUTUAL("mutual", "mutual tls");

  private final String value;
  private final String label;

  TlsMode(String value, String label) {
    this.value = value;
    this.label = label;
  }

  /** As -Dtls takes it: false, true, mutual. */
  public String value() {
    return value;
  }

  /** As users read it: plaintext, tls, mutual tls. */
  public String label() {
    return label;
  }

  public boolean on() {
    return this != PLAINTEXT;
  }

  /** {@code false}, {@code true}, {@code mutual}, or several in the order they run ({@code false,true}). */
  public static List<TlsMode> parseList(String value) {
    List<TlsMode> out = new ArrayList<>();
    for (String one : value.split(",", -1)) {
      TlsMode mode = null;
      for (TlsMode m : values()) {
        if (m.value.equals(one.trim().toLowerCase(Locale.ROOT))) {
          mode = m;
        }
      }
      if (mode == null || out.contains(mode)) {
        throw new IllegalArgumentException("-Dtls must be false, true or mutual (the shootout takes several:"
            + " false,true), got '" + value + "'");
      }
      out.add(mode);
    }
    return List.copyOf(out);
  }
}
