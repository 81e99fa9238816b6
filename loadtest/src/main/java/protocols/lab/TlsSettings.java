package protocols.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import protocols.rpc.Tls;

/**
 * TLS as a run's -D parameters ask for it: {@code -Dtls} (false, true or mutual; the shootout takes
 * several), {@code -Dtls.provider} (default, jdk, openssl), and, for a server of the user's
 * ({@code -Dtarget}), its CA and the client's certificate: {@code -Dtls.ca} (PEM, or PKCS#12 with
 * {@code -Dtls.password}; default: the JDK's CAs), {@code -Dtls.cert} and {@code -Dtls.key} (PEM) or
 * {@code -Dtls.keyStore} (PKCS#12), {@code -Dtls.serverName}. The lab's own servers get a throwaway CA
 * instead ({@link #forEmbedded}).
 */
record TlsSettings(List<TlsMode> modes, Tls.Provider provider, Optional<Path> ca, Optional<Path> cert,
                   Optional<Path> key, Optional<Path> keyStore, Optional<String> password, Optional<String> serverName) {

  /** The parameters that name the user's files and choices, passed on as given. */
  static final List<String> FILES = List.of("tls", "tls.provider", "tls.ca", "tls.cert", "tls.key", "tls.keyStore",
      "tls.password", "tls.serverName");

  static TlsSettings of(LoadParams params) {
    List<TlsMode> modes = TlsMode.parseList(params.string("tls", TlsMode.PLAINTEXT.value()));
    Tls.Provider provider = Tls.Provider.parse(params.string("tls.provider", "default"));
    Optional<Path> ca = file(params, "tls.ca");
    Optional<Path> cert = file(params, "tls.cert");
    Optional<Path> key = file(params, "tls.key");
    Optional<Path> keyStore = file(params, "tls.keyStore");
    Optional<String> password = params.optional("tls.password");
    Optional<String> serverName = params.optional("tls.serverName");
    if (cert.isPresent() != key.isPresent()) {
      throw new IllegalArgumentException("-Dtls.cert and -Dtls.key go together");
    }
    if (keyStore.isPresent() && cert.isPresent()) {
      throw new IllegalArgumentException("-Dtls.keyStore or -Dtls.cert with -Dtls.key: one of them");
    }
    boolean p12 = ca.map(TlsSettings::isPkcs12).orElse(false) || keyStore.isPresent();
    if (p12 && password.isEmpty()) {
      throw new IllegalArgumentException("a PKCS#12 store (-Dtls.ca=*.p12, -Dtls.keyStore) needs -Dtls.password");
    }
    return new TlsSettings(modes, provider, ca, cert, key, keyStore, password, serverName);
  }

  /** The one mode of a run of one framework. */
  TlsMode mode() {
    if (modes.size() > 1) {
      throw new IllegalArgumentException("-Dtls=" + String.join(",", modes.stream().map(TlsMode::value).toList())
          + " runs each framework several times: RpcShootout only");
    }
    return modes.get(0);
  }

  /** Whether the user gave certificates of their own (for their server, -Dtarget). */
  boolean ownFiles() {
    return ca.isPresent() || cert.isPresent() || keyStore.isPresent() || serverName.isPresent();
  }

  /** The client's TLS for a server of the user's, from the files given (the JDK's CAs when no -Dtls.ca). */
  Tls forTarget(TlsMode mode) {
    Tls tls = ca.map(c -> isPkcs12(c) ? Tls.trustingStore(c, password.orElseThrow()) : Tls.trusting(c))
        .orElseGet(Tls::trustingJdkCas);
    if (cert.isPresent()) {
      tls = tls.identity(cert.get(), key.get());
    } else if (keyStore.isPresent()) {
      tls = tls.identityStore(keyStore.get(), password.orElseThrow());
    } else if (mode == TlsMode.MUTUAL) {
      throw new IllegalArgumentException("-Dtls=mutual with -Dtarget: give the client's certificate, -Dtls.cert and"
          + " -Dtls.key (PEM) or -Dtls.keyStore (PKCS#12)");
    }
    return serverName.map(tls::serverName).orElse(tls).provider(provider);
  }

  /**
   * The run's throwaway CA, made once in a fresh folder: a server certificate for 127.0.0.1 and a
   * client certificate. One for every framework of the run, kept in one place (the run's tls/): a
   * client that reached another framework's server would still find it signed by the CA it trusts.
   */
  record Material(Path folder, ThrowawayCa ca, ThrowawayCa.Issued server, ThrowawayCa.Issued client) {
    static Material create() {
      Path folder;
      try {
        folder = Files.createTempDirectory("rpc-load-lab-tls-");
      } catch (IOException e) {
        throw new UncheckedIOException("no temporary folder for the throwaway CA", e);
      }
      ThrowawayCa ca = ThrowawayCa.create(folder, "ca");
      return new Material(folder, ca, ca.server("server", ThrowawayCa.LOOPBACK), ca.client("client"));
    }
  }

  /**
   * The lab's own servers in {@code mode} with the run's {@code material}: the servers' flags, and the
   * client's TLS (which always holds the client certificate: a server without a client CA never asks
   * for it, and Dubbo needs one to speak TLS).
   */
  static Embedded forEmbedded(TlsMode mode, Tls.Provider provider, Material material) {
    List<String> args = new ArrayList<>(List.of("--tls-cert", material.server().chain().toString(), "--tls-key",
        material.server().key().toString()));
    if (mode == TlsMode.MUTUAL) {
      args.addAll(List.of("--tls-client-ca", material.ca().certificate().toString()));
    }
    ThrowawayCa.Issued client = material.client();
    return new Embedded(material.folder(), List.copyOf(args),
        Tls.trusting(material.ca().certificate()).identity(client.chain(), client.key()).provider(provider),
        List.of("-Dtls.ca=" + material.ca().certificate(), "-Dtls.cert=" + client.chain(), "-Dtls.key=" + client.key(),
            "-Dtls.provider=" + provider.label()));
  }

  /**
   * The material of the lab's own TLS servers: where it is, the servers' flags, the clients' TLS, and
   * the -D options of a client in another JVM (the plain driver).
   */
  record Embedded(Path folder, List<String> serverArgs, Tls client, List<String> clientOptions) {
  }

  private static boolean isPkcs12(Path file) {
    String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
    return name.endsWith(".p12") || name.endsWith(".pfx");
  }

  private static Optional<Path> file(LoadParams params, String name) {
    return params.optional(name).map(v -> {
      Path p = Path.of(v);
      if (!Files.isReadable(p) || Files.isDirectory(p)) {
        throw new IllegalArgumentException("-D" + name + "=" + v + ": no readable file there");
      }
      return p;
    });
  }
}
