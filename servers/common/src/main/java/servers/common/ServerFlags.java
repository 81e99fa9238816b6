package servers.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --name value} flags with defaults. Unknown flags and missing values are errors, so a typo
 * never starts a server with settings the user did not ask for.
 */
public final class ServerFlags {
  private final Map<String, String> values;

  private ServerFlags(Map<String, String> values) {
    this.values = values;
  }

  /** Parses {@code args} against {@code defaults} (flag name without dashes to default value). */
  public static ServerFlags parse(String[] args, Map<String, String> defaults) {
    Map<String, String> values = new LinkedHashMap<>(defaults);
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name;
      String value;
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "', flags look like --port 20880");
      }
      int eq = arg.indexOf('=');
      if (eq > 0) {
        name = arg.substring(2, eq);
        value = arg.substring(eq + 1);
      } else {
        name = arg.substring(2);
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("flag --" + name + " needs a value");
        }
        value = args[++i];
      }
      if (!defaults.containsKey(name)) {
        throw new IllegalArgumentException("unknown flag --" + name + "; known: --" + String.join(", --", defaults.keySet()));
      }
      values.put(name, value);
    }
    return new ServerFlags(values);
  }

  public String get(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("no flag --" + name);
    }
    return v;
  }

  public int intValue(String name, int min, int max) {
    String v = get(name);
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw new IllegalArgumentException("--" + name + " must be between " + min + " and " + max + ", got " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
    }
  }

  /** The value, which must be one of {@code allowed}. */
  public String oneOf(String name, String... allowed) {
    String v = get(name);
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw new IllegalArgumentException("--" + name + " must be one of " + String.join("|", allowed) + ", got '" + v + "'");
  }
}
