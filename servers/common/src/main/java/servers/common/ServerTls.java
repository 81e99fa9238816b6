package servers.common;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --tls-cert FILE --tls-key FILE [--tls-client-ca FILE]}: the server speaks TLS only, with
 * that certificate chain and PKCS#8 key (PEM); with a client CA it also requires each client's
 * certificate to be signed by it (mutual TLS). Without {@code --tls-cert} it speaks plaintext.
 */
public record ServerTls(Path cert, Path key, Path clientCa) {
  public static final String CERT_FLAG = "tls-cert";
  public static final String KEY_FLAG = "tls-key";
  public static final String CLIENT_CA_FLAG = "tls-client-ca";
  private static final String NONE = "none";

  /** The flags, off by default. */
  public static void addDefaults(Map<String, String> defaults) {
    defaults.put(CERT_FLAG, NONE);
    defaults.put(KEY_FLAG, NONE);
    defaults.put(CLIENT_CA_FLAG, NONE);
  }

  /** The flags' files, checked readable; empty when the server speaks plaintext. */
  public static Optional<ServerTls> from(ServerFlags flags) {
    Optional<Path> cert = file(flags, CERT_FLAG);
    Optional<Path> key = file(flags, KEY_FLAG);
    Optional<Path> ca = file(flags, CLIENT_CA_FLAG);
    if (cert.isPresent() != key.isPresent()) {
      throw new IllegalArgumentException("--" + CERT_FLAG + " and --" + KEY_FLAG + " go together");
    }
    if (cert.isEmpty()) {
      if (ca.isPresent()) {
        throw new IllegalArgumentException("--" + CLIENT_CA_FLAG + " needs --" + CERT_FLAG + " and --" + KEY_FLAG);
      }
      return Optional.empty();
    }
    return Optional.of(new ServerTls(cert.get(), key.get(), ca.orElse(null)));
  }

  /** Whether clients must show a certificate signed by {@link #clientCa}. */
  public boolean mutual() {
    return clientCa != null;
  }

  /** What the ready line says of it. */
  public String describe() {
    return mutual() ? "tls mutual" : "tls";
  }

  private static Optional<Path> file(ServerFlags flags, String name) {
    String v = flags.get(name);
    if (v.equals(NONE)) {
      return Optional.empty();
    }
    Path p = Path.of(v);
    if (!Files.isReadable(p) || Files.isDirectory(p)) {
      throw new IllegalArgumentException("--" + name + " " + v + ": no readable file there");
    }
    return Optional.of(p);
  }
}
