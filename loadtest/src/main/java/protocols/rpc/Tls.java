package protocols.rpc;

import contract.tls.TlsFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How a client speaks TLS ({@code grpc.target(...).tls(Tls.trusting(caPem).identity(certPem, keyPem))}):
 * the CAs it trusts (a PEM bundle, a PKCS#12 trust store, or the JDK's own), its own certificate and
 * key for servers that ask for one (PEM or PKCS#12), the name it expects on the server's certificate
 * when that is not the host it connects to, and the TLS implementation where the framework offers a
 * choice. Immutable; files are read when the client starts, and a bad one fails it in one line.
 */
public final class Tls {
  /** The TLS implementation, where the framework lets one choose (gRPC's client, the Netty ceiling). */
  public enum Provider {
    /** The framework's own choice: OpenSSL (netty-tcnative) where it loads, for the frameworks on Netty. */
    DEFAULT,
    /** The JDK's JSSE. */
    JDK,
    /** OpenSSL through netty-tcnative (BoringSSL). */
    OPENSSL;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Provider parse(String value) {
      for (Provider p : values()) {
        if (p.label().equals(value.trim().toLowerCase(Locale.ROOT))) {
          return p;
        }
      }
      throw new IllegalArgumentException("the TLS provider must be default, jdk or openssl, got '" + value + "'");
    }
  }

  private final Path caPem;
  private final Path trustStore;
  private final Path certPem;
  private final Path keyPem;
  private final Path keyStore;
  private final String password;
  private final String serverName;
  private final Provider provider;

  private Tls(Path caPem, Path trustStore, Path certPem, Path keyPem, Path keyStore, String password, String serverName,
              Provider provider) {
    this.caPem = caPem;
    this.trustStore = trustStore;
    this.certPem = certPem;
    this.keyPem = keyPem;
    this.keyStore = keyStore;
    this.password = password;
    this.serverName = serverName;
    this.provider = Objects.requireNonNull(provider, "provider");
  }

  /** Trusts the CAs of a PEM file (one or more certificates). */
  public static Tls trusting(Path caPem) {
    return new Tls(Objects.requireNonNull(caPem, "caPem"), null, null, null, null, null, null, Provider.DEFAULT);
  }

  /** Trusts the certificates of a PKCS#12 trust store. */
  public static Tls trustingStore(Path pkcs12, String password) {
    return new Tls(null, Objects.requireNonNull(pkcs12, "pkcs12"), null, null, null,
        Objects.requireNonNull(password, "password"), null, Provider.DEFAULT);
  }

  /** Trusts the JDK's own CAs: a server with a certificate from a public CA. */
  public static Tls trustingJdkCas() {
    return new Tls(null, null, null, null, null, null, null, Provider.DEFAULT);
  }

  /** The client's certificate chain and PKCS#8 key (PEM), shown to a server that asks for one (mutual TLS). */
  public Tls identity(Path chainPem, Path keyPemFile) {
    return new Tls(caPem, trustStore, Objects.requireNonNull(chainPem, "chainPem"),
        Objects.requireNonNull(keyPemFile, "keyPem"), null, password, serverName, provider);
  }

  /** The client's key and certificate in a PKCS#12 store. */
  public Tls identityStore(Path pkcs12, String storePassword) {
    return new Tls(caPem, trustStore, null, null, Objects.requireNonNull(pkcs12, "pkcs12"),
        Objects.requireNonNull(storePassword, "password"), serverName, provider);
  }

  /** The name the server's certificate must carry, when it is not the host called (e.g. an IP address). */
  public Tls serverName(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("serverName must not be blank");
    }
    return new Tls(caPem, trustStore, certPem, keyPem, keyStore, password, name, provider);
  }

  /** The TLS implementation, where the framework offers a choice. */
  public Tls provider(Provider newProvider) {
    return new Tls(caPem, trustStore, certPem, keyPem, keyStore, password, serverName, newProvider);
  }

  public Provider provider() {
    return provider;
  }

  public Optional<String> serverName() {
    return Optional.ofNullable(serverName);
  }

  /** The CAs trusted, read now; empty for the JDK's own. */
  public Optional<List<X509Certificate>> trusted() {
    if (caPem != null) {
      return Optional.of(TlsFiles.certificates(caPem));
    }
    if (trustStore != null) {
      return Optional.of(TlsFiles.certificates(trustStore, password));
    }
    return Optional.empty();
  }

  /** The client's own certificate and key, read now, if it has one. */
  public Optional<TlsFiles.Identity> identity() {
    if (certPem != null) {
      return Optional.of(TlsFiles.identity(certPem, keyPem));
    }
    if (keyStore != null) {
      return Optional.of(TlsFiles.identity(keyStore, password));
    }
    return Optional.empty();
  }

  /** Whether the client has a certificate to show. */
  public boolean hasIdentity() {
    return certPem != null || keyStore != null;
  }

  /**
   * PEM files of the trusted CAs, the chain and the key, for frameworks that take file names (Dubbo):
   * the given ones, or copies written now into {@code folder} from a PKCS#12 store.
   */
  public PemFiles pemFiles(Path folder) {
    try {
      Path ca = caPem;
      if (ca == null && trustStore != null) {
        ca = Files.write(folder.resolve("trusted-ca.pem"), TlsFiles.pem(trusted().orElseThrow()));
      }
      Path chain = certPem;
      Path key = keyPem;
      if (chain == null && keyStore != null) {
        TlsFiles.Identity id = identity().orElseThrow();
        chain = Files.write(folder.resolve("client.pem"), id.chainPem());
        key = Files.write(folder.resolve("client.key"), id.keyPem());
      }
      return new PemFiles(ca, chain, key);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write PEM copies into " + folder, e);
    }
  }

  /** PEM file names; null where there is none (the JDK's CAs, no client certificate). */
  public record PemFiles(Path ca, Path chain, Path key) {
  }

  /** What the run's protocol table says of it. */
  public String describe() {
    String trust = caPem != null ? "trusts " + caPem.getFileName() : trustStore != null
        ? "trusts " + trustStore.getFileName() : "trusts the JDK's CAs";
    String id = certPem != null ? ", client certificate " + certPem.getFileName() : keyStore != null
        ? ", client certificate in " + keyStore.getFileName() : "";
    return trust + id + (serverName == null ? "" : ", server name " + serverName);
  }

  @Override
  public String toString() {
    return "Tls(" + describe() + ", provider " + provider.label() + ")";
  }
}
