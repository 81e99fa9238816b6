package protocols.dubbo;

import java.nio.file.Path;
import org.apache.dubbo.config.SslConfig;
import protocols.rpc.NettyTls;
import protocols.rpc.RpcSettings;
import protocols.rpc.Tls;

/** Dubbo's client TLS, for both of its protocols: its files, what it cannot do, Netty's JVM-wide host check. */
final class DubboTls {
  private DubboTls() {
  }

  /**
   * Dubbo's own client TLS (SslConfig's client files, both protocols): Dubbo makes a TLS client only
   * when it has a client certificate and key, which the server asks for only when it requires them.
   */
  static SslConfig sslConfig(Tls tls, Path folder) {
    Tls.PemFiles files = tls.pemFiles(folder);
    SslConfig ssl = new SslConfig();
    ssl.setClientKeyCertChainPath(files.chain().toAbsolutePath().toString());
    ssl.setClientPrivateKeyPath(files.key().toAbsolutePath().toString());
    if (files.ca() != null) {
      ssl.setClientTrustCertCollectionPath(files.ca().toAbsolutePath().toString());
    }
    return ssl;
  }

  /** Netty's property for the name check its client contexts make by default (HTTPS). */
  static final String NETTY_DEFAULT_NAME_CHECK = "io.netty.handler.ssl.defaultEndpointVerificationAlgorithm";

  /**
   * Dubbo 3.3.6 makes its client SSLEngine without the server's host, which Netty 4.2 refuses while its
   * default host check is on ("Hostname or IP address is undefined"). That default is JVM-wide and read
   * once, when Netty's SslContext is first loaded (Gatling does at its start, so there the command line
   * must say it: the pom's dubbo-tls profile, with -Dtls); in a JVM that has not loaded it yet (a plain
   * driver) it is turned off here; else one line says what the JVM needs.
   */
  static void allowEnginesWithoutHost() {
    if (System.getProperty(NETTY_DEFAULT_NAME_CHECK) == null) {
      System.setProperty(NETTY_DEFAULT_NAME_CHECK, "NONE");
    }
    String check = nettyDefaultNameCheck();
    if (check != null && !check.isEmpty()) {
      throw new IllegalStateException("Dubbo's TLS client cannot run in this JVM: Netty's default host check is "
          + check + " (read once, when the JVM first loaded Netty's SslContext: Gatling does at its start), and Dubbo"
          + " 3.3.6 makes its TLS engine without the server's host; start the JVM with -D" + NETTY_DEFAULT_NAME_CHECK
          + "=NONE (./mvnw gatling:test adds it when -Dtls is given; docs/tls.md)");
    }
  }

  /** Netty's default host check as loaded (null: off), or "" when it cannot be read. */
  static String nettyDefaultNameCheck() {
    try {
      java.lang.reflect.Field f = io.netty.handler.ssl.SslContext.class
          .getDeclaredField("defaultEndpointVerificationAlgorithm");
      f.setAccessible(true);
      return (String) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return ""; // another Netty: its handshake will say
    }
  }

  /** Why Dubbo's client cannot speak TLS as {@code tls} asks, or null (for both of its protocols). */
  static String noTls(Tls tls) {
    if (!tls.hasIdentity()) {
      return "Dubbo makes a TLS client only with a client certificate and key (its SslConfig): add"
          + " .identity(...) or .identityStore(...); a server without a client CA never asks for it";
    }
    if (tls.serverName().isPresent()) {
      return "Dubbo's client does not check the server's name (its SslHandler has no peer host), so there is"
          + " none to override";
    }
    if (tls.provider() != Tls.Provider.DEFAULT) {
      return "Dubbo picks its TLS implementation itself (OpenSSL where netty-tcnative loads, else the JDK's)";
    }
    return null;
  }

  /** Dubbo's own pick (SslContexts.findSslProvider), as the report says it. */
  static String tlsImplementation(RpcSettings settings) {
    return settings.viaTls().map(t -> NettyTls.describe(NettyTls.provider(Tls.Provider.DEFAULT))
        + ", Dubbo's pick; the server's name is not checked").orElse("none");
  }
}
