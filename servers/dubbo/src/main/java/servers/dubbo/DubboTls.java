package servers.dubbo;

import java.util.Optional;
import org.apache.dubbo.config.SslConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import servers.common.ServerTls;

/**
 * Dubbo's own TLS for both protocols (dubbo and Triple share its port unification): {@link SslConfig}'s
 * server files. Dubbo then refuses plaintext connections, and with a client CA requires client
 * certificates; it runs on OpenSSL (netty-tcnative) when that loads, else on the JDK's.
 */
final class DubboTls {
  private DubboTls() {}

  static DubboBootstrap apply(DubboBootstrap bootstrap, Optional<ServerTls> tls) {
    if (tls.isEmpty()) {
      return bootstrap;
    }
    SslConfig ssl = new SslConfig();
    ssl.setServerKeyCertChainPath(tls.get().cert().toAbsolutePath().toString());
    ssl.setServerPrivateKeyPath(tls.get().key().toAbsolutePath().toString());
    if (tls.get().mutual()) {
      ssl.setServerTrustCertCollectionPath(tls.get().clientCa().toAbsolutePath().toString());
    }
    return bootstrap.ssl(ssl);
  }
}
