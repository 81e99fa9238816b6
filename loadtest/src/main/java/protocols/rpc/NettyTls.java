package protocols.rpc;

import contract.tls.TlsFiles;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * A client's {@link Tls} as Netty's {@code SslContextBuilder}, for the clients on Netty that let one
 * choose the implementation (gRPC's, the ceiling's): the server's name checked (HTTPS endpoint
 * identification), its CAs, the client's own key; OpenSSL (netty-tcnative's BoringSSL) or the JDK's.
 */
public final class NettyTls {
  private NettyTls() {}

  /** The implementation {@code asked} means here: by default OpenSSL where it loads, else the JDK's. */
  public static SslProvider provider(Tls.Provider asked) {
    return switch (asked) {
      case JDK -> SslProvider.JDK;
      case OPENSSL -> {
        if (!OpenSsl.isAvailable()) {
          throw new IllegalArgumentException("TLS provider openssl: netty-tcnative does not load here ("
              + Errors.rootMessage(OpenSsl.unavailabilityCause()) + ")");
        }
        yield SslProvider.OPENSSL;
      }
      case DEFAULT -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    };
  }

  /** A client builder with {@code tls}'s CAs and key, checking the server's name; the implementation is the caller's. */
  public static SslContextBuilder forClient(Tls tls) {
    SslContextBuilder builder = SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS");
    tls.trusted().ifPresent(cas -> builder.trustManager(TlsFiles.trustManagers(cas)));
    tls.identity().ifPresent(id -> builder.keyManager(id.keyManagers()));
    return builder;
  }

  /** What the report says of {@code provider}. */
  public static String describe(SslProvider provider) {
    return provider == SslProvider.JDK ? "the JDK's (JSSE)"
        : "OpenSSL (netty-tcnative, " + OpenSsl.versionString() + ")";
  }
}
