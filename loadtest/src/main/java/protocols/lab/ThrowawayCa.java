package protocols.lab;

import contract.tls.TlsFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A CA made for one run and thrown away with it (nothing secret is checked in): it signs the embedded
 * servers' certificates for 127.0.0.1 and the clients', with EC P-256 keys, written as PEM (the chain,
 * a PKCS#8 key) into a folder. Also makes the certificates a TLS test needs to fail: expired, for
 * another host, from another CA.
 */
public final class ThrowawayCa {
  /** The names every server certificate made here is for: the lab's servers bind 127.0.0.1. */
  public static final List<String> LOOPBACK = List.of("127.0.0.1", "localhost");
  private static final Duration VALID = Duration.ofDays(2);
  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private final Path folder;
  private final KeyPair key;
  private final X509Certificate certificate;
  private final Path pem;

  private ThrowawayCa(Path folder, KeyPair key, X509Certificate certificate, Path pem) {
    this.folder = folder;
    this.key = key;
    this.certificate = certificate;
    this.pem = pem;
  }

  /** A new CA named {@code name}, its certificate written to {@code folder/<name>.pem}. */
  public static ThrowawayCa create(Path folder, String name) {
    try {
      Files.createDirectories(folder);
      KeyPair key = newKey();
      X500Name subject = new X500Name("CN=rpc-load-lab " + name + ", O=throwaway");
      Instant now = Instant.now();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
          Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALID)), subject, key.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509Certificate cert = sign(builder, key);
      Path pem = Files.write(folder.resolve(name + ".pem"), TlsFiles.pem(List.of(cert)));
      return new ThrowawayCa(folder, key, cert, pem);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the throwaway CA into " + folder, e);
    }
  }

  /** The CA's certificate (PEM): what a client trusts, or a server trusts its clients by. */
  public Path certificate() {
    return pem;
  }

  /** A certificate and its key as files. */
  public record Issued(Path chain, Path key) {
  }

  /** A server certificate for {@code hosts} (IP addresses or DNS names), valid now, as {@code name}.pem/.key. */
  public Issued server(String name, List<String> hosts) {
    Instant now = Instant.now();
    return issue(name, hosts, KeyPurposeId.id_kp_serverAuth, now.minus(Duration.ofHours(1)), now.plus(VALID));
  }

  /** A client certificate, valid now. */
  public Issued client(String name) {
    Instant now = Instant.now();
    return issue(name, List.of(), KeyPurposeId.id_kp_clientAuth, now.minus(Duration.ofHours(1)), now.plus(VALID));
  }

  /** A server certificate for {@code hosts} that expired a day ago. */
  public Issued expiredServer(String name, List<String> hosts) {
    Instant now = Instant.now();
    return issue(name, hosts, KeyPurposeId.id_kp_serverAuth, now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(1)));
  }

  private Issued issue(String name, List<String> hosts, KeyPurposeId purpose, Instant from, Instant to) {
    try {
      KeyPair leaf = newKey();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(), Date.from(from),
          Date.from(to), new X500Name("CN=" + (hosts.isEmpty() ? name : hosts.get(0)) + ", O=rpc-load-lab throwaway"),
          leaf.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      if (!hosts.isEmpty()) {
        GeneralName[] names = hosts.stream().map(h -> new GeneralName(
            h.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':') ? GeneralName.iPAddress
                : GeneralName.dNSName, h)).toArray(GeneralName[]::new);
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
      }
      X509Certificate cert = sign(builder, key);
      Path chain = Files.write(folder.resolve(name + ".pem"), TlsFiles.pem(List.of(cert)));
      Path keyFile = Files.write(folder.resolve(name + ".key"), TlsFiles.pemBlock("PRIVATE KEY",
          leaf.getPrivate().getEncoded()));
      return new Issued(chain, keyFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a certificate into " + folder, e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
    try {
      return new JcaX509CertificateConverter().getCertificate(builder.build(
          new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a certificate: " + e.getMessage(), e);
    }
  }

  private static KeyPair newKey() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no EC key generator: " + e.getMessage(), e);
    }
  }

  private static BigInteger serial() {
    return BigInteger.valueOf(SERIAL.incrementAndGet());
  }
}
