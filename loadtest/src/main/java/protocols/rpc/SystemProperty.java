package protocols.rpc;

import java.util.Optional;

/**
 * A {@code -D} value as the user typed it. Gatling's Maven plugin hands the Maven JVM's system properties to
 * the JVM it forks for the simulation escaped as Java string literals ({@code "} becomes {@code \"},
 * {@code \} {@code \\}, {@code é} {@code \u00e9}), and nothing unescapes them: {@code -Dpayload='{"sku":
 * "A1"}'} reaches {@code System.getProperty} as {@code {\"sku\": \"A1\"}}. In a JVM that plugin forked
 * (started from its {@code gatlingbooter*.jar}) this undoes the escape; elsewhere (an IDE, a test's own
 * JVM, Gatling's bundle) the value is returned as it is. Read a simulation's own {@code -D} values with it.
 */
public final class SystemProperty {
  private static final boolean FORKED_BY_MAVEN_PLUGIN = forkedByMavenPlugin(System.getProperty("sun.java.command", ""));

  private SystemProperty() {}

  /** {@code -Dname}'s value as typed, if set. */
  public static Optional<String> get(String name) {
    return Optional.ofNullable(System.getProperty(name)).map(SystemProperty::asTyped);
  }

  /** {@code -Dname}'s value as typed, or {@code defaultValue}. */
  public static String get(String name, String defaultValue) {
    return get(name).orElse(defaultValue);
  }

  /** A system property's value as typed: unescaped in a JVM the Maven plugin forked. */
  public static String asTyped(String value) {
    return FORKED_BY_MAVEN_PLUGIN ? unescape(value) : value;
  }

  static boolean forkedByMavenPlugin(String javaCommand) {
    String first = javaCommand.strip().split("\\s+", 2)[0];
    String file = first.substring(first.lastIndexOf('/') + 1);
    return file.startsWith("gatlingbooter") && file.endsWith(".jar");
  }

  /** The inverse of the plugin's escape: {@code \\ \" \' \b \t \n \f \r \}{@code uXXXX}. */
  static String unescape(String escaped) {
    if (escaped.indexOf('\\') < 0) {
      return escaped;
    }
    StringBuilder sb = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '\\' || i + 1 == escaped.length()) {
        sb.append(c);
        continue;
      }
      char next = escaped.charAt(++i);
      switch (next) {
        case 'b' -> sb.append('\b');
        case 't' -> sb.append('\t');
        case 'n' -> sb.append('\n');
        case 'f' -> sb.append('\f');
        case 'r' -> sb.append('\r');
        case 'u' -> {
          if (i + 4 < escaped.length() && escaped.substring(i + 1, i + 5).chars().allMatch(SystemProperty::isHex)) {
            sb.append((char) Integer.parseInt(escaped.substring(i + 1, i + 5), 16));
            i += 4;
          } else {
            sb.append('\\').append(next);
          }
        }
        default -> sb.append(next); // \\ \" \'
      }
    }
    return sb.toString();
  }

  private static boolean isHex(int c) {
    return Character.digit(c, 16) >= 0;
  }
}
