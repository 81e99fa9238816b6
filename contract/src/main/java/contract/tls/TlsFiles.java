package contract.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates and keys from PEM files (an X.509 chain, an unencrypted PKCS#8 key) or a PKCS#12 store,
 * with the JDK alone, in the forms each framework takes: JSSE key and trust managers (Thrift, Netty,
 * gRPC), PEM bytes (Dubbo's SslConfig) or a PKCS#12 store (IceSSL). Every failure is an
 * {@link IllegalArgumentException} naming the file and what is wrong with it.
 */
public final class TlsFiles {
  /** The password of the in-memory PKCS#12 stores made here (never written to disk). */
  public static final String STORE_PASSWORD = "changeit";
  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

  private TlsFiles() {}

  /** A private key and the certificate chain that goes with it, the first certificate its own. */
  public record Identity(PrivateKey key, List<X509Certificate> chain) {
    public Identity {
      chain = List.copyOf(chain);
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("an identity needs at least one certificate");
      }
    }

    /** The chain as PEM text. */
    public byte[] chainPem() {
      return pem(chain);
    }

    /** The key as PKCS#8 PEM text. */
    public byte[] keyPem() {
      return pemBlock("PRIVATE KEY", key.getEncoded());
    }

    public KeyStore keyStore() {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("identity", key, STORE_PASSWORD.toCharArray(), chain.toArray(Certificate[]::new));
        return store;
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException("cannot hold the key in a PKCS#12 store: " + e.getMessage(), e);
      }
    }

    public KeyManagerFactory keyManagers() {
      try {
        KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        f.init(keyStore(), STORE_PASSWORD.toCharArray());
        return f;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("no key manager for the key: " + e.getMessage(), e);
      }
    }
  }

  /** The identity in a PEM certificate chain and a PEM (PKCS#8, unencrypted) private key. */
  public static Identity identity(Path certFile, Path keyFile) {
    List<X509Certificate> chain = certificates(certFile);
    byte[] der = block(keyFile, "PRIVATE KEY", "a PKCS#8 private key (-----BEGIN PRIVATE KEY-----; convert others with"
        + " openssl pkcs8 -topk8 -nocrypt)");
    PrivateKey key = null;
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        break;
      } catch (GeneralSecurityException e) {
        // the next algorithm
      }
    }
    if (key == null) {
      throw new IllegalArgumentException(keyFile + ": not an RSA, EC or Ed25519 private key");
    }
    return new Identity(key, chain);
  }

  /** The identity in a PKCS#12 store (its first key entry). */
  public static Identity identity(Path pkcs12, String password) {
    KeyStore store = load(pkcs12, password);
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          Certificate[] chain = store.getCertificateChain(alias);
          List<X509Certificate> x509 = new ArrayList<>();
          for (Certificate c : chain) {
            x509.add((X509Certificate) c);
          }
          return new Identity((PrivateKey) store.getKey(alias, password.toCharArray()), x509);
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(pkcs12 + ": cannot read its key: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(pkcs12 + ": holds no private key");
  }

  /** Every certificate of a PEM file (a CA bundle, or a chain). */
  public static List<X509Certificate> certificates(Path pemFile) {
    String text = read(pemFile);
    List<X509Certificate> out = new ArrayList<>();
    Matcher m = PEM.matcher(text);
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      while (m.find()) {
        if (m.group(1).equals("CERTIFICATE")) {
          out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(decode(pemFile, m.group(2)))));
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(pemFile + ": not a readable X.509 certificate: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(pemFile + ": no certificate in it (-----BEGIN CERTIFICATE-----)");
    }
    return out;
  }

  /** The trusted certificates of a PKCS#12 (or JKS) trust store. */
  public static List<X509Certificate> certificates(Path store, String password) {
    KeyStore ks = load(store, password);
    List<X509Certificate> out = new ArrayList<>();
    try {
      for (String alias : Collections.list(ks.aliases())) {
        Certificate c = ks.getCertificate(alias);
        if (c instanceof X509Certificate x) {
          out.add(x);
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(store + ": " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(store + ": holds no certificate");
    }
    return out;
  }

  /** A PKCS#12 store of {@code trusted}, for frameworks that take a trust store. */
  public static KeyStore trustStore(List<X509Certificate> trusted) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < trusted.size(); i++) {
        store.setCertificateEntry("ca-" + i, trusted.get(i));
      }
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot hold the CAs in a trust store: " + e.getMessage(), e);
    }
  }

  public static TrustManagerFactory trustManagers(List<X509Certificate> trusted) {
    try {
      TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      f.init(trustStore(trusted));
      return f;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no trust manager for the CAs: " + e.getMessage(), e);
    }
  }

  /** A JSSE context with {@code identity} (may be null) and trusting {@code trusted} (null: the JDK's own CAs). */
  public static SSLContext context(Identity identity, List<X509Certificate> trusted) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(identity == null ? null : identity.keyManagers().getKeyManagers(),
          trusted == null ? null : trustManagers(trusted).getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS context: " + e.getMessage(), e);
    }
  }

  /** A store as PKCS#12 bytes, with {@link #STORE_PASSWORD}. */
  public static byte[] bytes(KeyStore store) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      store.store(out, STORE_PASSWORD.toCharArray());
      return out.toByteArray();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot write a PKCS#12 store: " + e.getMessage(), e);
    }
  }

  /** Certificates as PEM text. */
  public static byte[] pem(List<X509Certificate> certificates) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (X509Certificate c : certificates) {
      try {
        out.writeBytes(pemBlock("CERTIFICATE", c.getEncoded()));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot encode a certificate: " + e.getMessage(), e);
      }
    }
    return out.toByteArray();
  }

  public static byte[] pemBlock(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return ("-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static KeyStore load(Path file, String password) {
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      return store;
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read it as a PKCS#12 store (" + oneLine(e) + ")", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": " + oneLine(e), e);
    }
  }

  private static byte[] block(Path file, String type, String what) {
    Matcher m = PEM.matcher(read(file));
    while (m.find()) {
      if (m.group(1).equals(type)) {
        return decode(file, m.group(2));
      }
    }
    throw new IllegalArgumentException(file + ": no " + what + " in it");
  }

  private static byte[] decode(Path file, String base64) {
    try {
      return Base64.getMimeDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": bad base64 in a PEM block");
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + " (" + oneLine(e) + ")", e);
    }
  }

  private static String oneLine(Exception e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst()
        .orElse(""));
  }
}
