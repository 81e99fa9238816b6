package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.tls.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.rpc.Tls;

class ThrowawayCaTest {

  @Test
  void signsCertificatesForLoopbackThatTheFilesReadBack(@TempDir Path dir) throws Exception {
    ThrowawayCa ca = ThrowawayCa.create(dir, "ca");
    ThrowawayCa.Issued server = ca.server("server", ThrowawayCa.LOOPBACK);
    X509Certificate root = TlsFiles.certificates(ca.certificate()).get(0);
    TlsFiles.Identity id = TlsFiles.identity(server.chain(), server.key());
    X509Certificate leaf = id.chain().get(0);
    leaf.verify(root.getPublicKey()); // signed by the CA
    leaf.checkValidity();
    assertTrue(root.getBasicConstraints() >= 0, "the CA may sign");
    assertEquals(-1, leaf.getBasicConstraints(), "the server's may not");
    List<String> names = leaf.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1))).toList();
    assertEquals(List.of("127.0.0.1", "localhost"), names);
    assertThrows(CertificateExpiredException.class,
        () -> TlsFiles.identity(ca.expiredServer("old", ThrowawayCa.LOOPBACK).chain(),
            ca.expiredServer("old", ThrowawayCa.LOOPBACK).key()).chain().get(0).checkValidity());
  }

  @Test
  void aPkcs12StoreIsReadAsThePemFilesItWasMadeOf(@TempDir Path dir) throws Exception {
    ThrowawayCa ca = ThrowawayCa.create(dir, "ca");
    ThrowawayCa.Issued client = ca.client("client");
    TlsFiles.Identity pem = TlsFiles.identity(client.chain(), client.key());
    Path p12 = Files.write(dir.resolve("client.p12"), TlsFiles.bytes(pem.keyStore()));
    Path trust = Files.write(dir.resolve("ca.p12"), TlsFiles.bytes(TlsFiles.trustStore(TlsFiles.certificates(
        ca.certificate()))));
    Tls tls = Tls.trustingStore(trust, TlsFiles.STORE_PASSWORD).identityStore(p12, TlsFiles.STORE_PASSWORD);
    TlsFiles.Identity read = tls.identity().orElseThrow();
    assertArrayEquals(pem.key().getEncoded(), read.key().getEncoded());
    assertEquals(pem.chain(), read.chain());
    // Dubbo takes file names: the stores' PEM copies.
    Tls.PemFiles files = tls.pemFiles(Files.createDirectories(dir.resolve("pem")));
    assertEquals(TlsFiles.certificates(ca.certificate()), TlsFiles.certificates(files.ca()));
    assertArrayEquals(pem.key().getEncoded(), TlsFiles.identity(files.chain(), files.key()).key().getEncoded());
  }

  @Test
  void badFilesAreOneLineNamingTheFile(@TempDir Path dir) throws Exception {
    Path notPem = Files.writeString(dir.resolve("ca.pem"), "hello");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsFiles.certificates(notPem));
    assertEquals(notPem + ": no certificate in it (-----BEGIN CERTIFICATE-----)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TlsFiles.identity(notPem, notPem));
    assertTrue(e.getMessage().startsWith(notPem + ": no certificate in it"), e.getMessage());
  }

  @Test
  void tlsParametersAreCheckedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
    assertEquals(List.of(TlsMode.PLAINTEXT, TlsMode.TLS, TlsMode.MUTUAL), TlsMode.parseList("false,true,mutual"));
    assertThrows(IllegalArgumentException.class, () -> TlsMode.parseList("true,true"));
    Path file = Files.writeString(dir.resolve("client.pem"), "x");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("tls", "true", "tls.cert", file.toString())).validate());
    assertEquals("-Dtls.cert and -Dtls.key go together", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("tls", "true", "tls.keyStore", file.toString())).validate());
    assertTrue(e.getMessage().contains("needs -Dtls.password"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("tls", "true,mutual")).tls().mode());
    assertTrue(e.getMessage().contains("RpcShootout only"), e.getMessage());
  }
}
