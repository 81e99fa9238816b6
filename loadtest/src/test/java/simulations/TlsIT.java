package simulations;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoRun;
import protocols.lab.EmbeddedServer;
import protocols.lab.Endpoints;
import protocols.lab.LoadParams;
import protocols.lab.RpcFramework;
import protocols.lab.ThrowawayCa;
import protocols.rpc.Tls;

/**
 * TLS on every framework that has it here: each one with TLS and with mutual TLS, both invocation
 * models (Thrift's sync only), in one shootout; and each bad certificate, or a client and server that do not
 * agree on TLS, fails the first call with one line naming what failed.
 */
class TlsIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "tls");
  private static final List<String> WITH_TLS = List.of("dubbo", "triple", "thrift", "grpc", "netty");

  @Test
  void everyFrameworkSpeaksTlsAndMutualTls() throws Exception {
    // Plaintext is every other IT's; the plaintext-against-TLS table is ComparisonReportTest's.
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", "dubbo,triple,thrift,grpc,ice,netty",
        "tls", "true,mutual", "mode", "async,sync", "levels", "2", "duration", "2", "warmup", "0"),
        RESULTS.resolve("shootout"), Duration.ofMinutes(6));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode requests = summary.get("requests");
    for (String framework : WITH_TLS) {
      for (String tls : List.of(" tls", " mutual tls")) {
        for (String mode : List.of("async", "sync")) {
          String level = framework + tls + " echo 2 clients (" + mode + ")";
          if (framework.equals("thrift") && mode.equals("async")) {
            assertNull(requests.get(level), "Thrift's async client has no TLS: " + level);
          } else {
            GatlingProcess.assertLevel(requests, level, 2);
          }
        }
      }
    }
    assertNull(requests.get("ice tls echo 2 clients (async)"));
    assertTrue(run.output().contains("ice tls: not run: none (no TLS for Ice here"), run.output());
    int encrypted = 0;
    for (JsonNode p : summary.get("run").get("protocols")) {
      String tls = p.get("tls").asText();
      assertTrue(tls.startsWith("on: trusts ca.pem, client certificate client.pem; implementation "), tls);
      assertTrue(p.has("tlsMode"), p.toString());
      encrypted++;
    }
    // Each framework with TLS in both TLS modes, and each mode it can encrypt (Thrift: sync only).
    assertEquals(2 * (4 * 2 + 1), encrypted, summary.get("run").get("protocols").toString());
    Path folder = run.runFolder();
    for (String framework : WITH_TLS) {
      assertTrue(Files.exists(folder.resolve("tls").resolve(framework + "-mutual-tls").resolve("ca.pem")),
          "the run keeps its throwaway CA: " + framework);
    }
  }

  /** One framework's servers for the bad cases: mutual TLS, an expired certificate, another host's, plaintext. */
  @Test
  void eachBadCertificateFailsTheFirstCallInOneLineNamingWhatFailed() throws Exception {
    Path dir = Files.createDirectories(RESULTS.resolve("certificates"));
    ThrowawayCa ca = ThrowawayCa.create(dir, "ca");
    ThrowawayCa other = ThrowawayCa.create(dir, "other-ca");
    ThrowawayCa.Issued good = ca.server("server", ThrowawayCa.LOOPBACK);
    ThrowawayCa.Issued expired = ca.expiredServer("expired", ThrowawayCa.LOOPBACK);
    ThrowawayCa.Issued elsewhere = ca.server("elsewhere", List.of("rpc.example.org"));
    ThrowawayCa.Issued client = ca.client("client");
    ThrowawayCa.Issued stranger = other.client("stranger");
    Tls trusting = Tls.trusting(ca.certificate()).identity(client.chain(), client.key());
    LoadParams params = new LoadParams(Map.of());
    List<String> failures = new ArrayList<>();
    for (String name : WITH_TLS) {
      RpcFramework<?, ?> framework = Frameworks.byName(name);
      boolean dubbo = name.equals("dubbo") || name.equals("triple");
      // Started side by side: most of their time is a JVM's and a framework's start.
      CompletableFuture<EmbeddedServer> starting = CompletableFuture.supplyAsync(() -> server(framework, params, good,
          ca.certificate()));
      CompletableFuture<EmbeddedServer> startingOld = CompletableFuture.supplyAsync(() -> server(framework, params,
          expired, null));
      CompletableFuture<EmbeddedServer> startingElsewhere = CompletableFuture.supplyAsync(() -> server(framework,
          params, elsewhere, null));
      try (EmbeddedServer plaintext = EmbeddedServer.start(name, framework.serverMainClass(),
               framework.serverArgs(params));
           EmbeddedServer mutual = starting.join();
           EmbeddedServer old = startingOld.join();
           EmbeddedServer otherHost = startingElsewhere.join()) {
        EchoRun.probe(framework, params, on(mutual, trusting), "good"); // the servers are right
        expect(failures, name, "wrong CA", framework, params, on(mutual, Tls.trusting(other.certificate())
            .identity(client.chain(), client.key())), "not signed by a CA this client trusts");
        expect(failures, name, "expired", framework, params, on(old, trusting), "has expired");
        if (dubbo) { // Dubbo's client makes its TLS engine without the server's host: it checks no name
          assertDoesNotThrow(() -> EchoRun.probe(framework, params, on(otherHost, trusting), "wrong host"), name);
        } else {
          expect(failures, name, "wrong host", framework, params, on(otherHost, trusting), "is not for 127.0.0.1");
        }
        // Dubbo makes a TLS client only with a certificate: one the server's CA did not sign, for it.
        Tls noCertificate = dubbo ? Tls.trusting(ca.certificate()).identity(stranger.chain(), stranger.key())
            : Tls.trusting(ca.certificate());
        expect(failures, name, "no client certificate", framework, params, on(mutual, noCertificate),
            "client certificate");
        expect(failures, name, "plaintext client", framework, params, on(mutual, null),
            "if the server speaks TLS, run with -Dtls=true");
        expect(failures, name, "TLS client, plaintext server", framework, params, on(plaintext, trusting),
            "TLS:");
      }
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  private static EmbeddedServer server(RpcFramework<?, ?> framework, LoadParams params, ThrowawayCa.Issued cert,
                                       Path clientCa) {
    List<String> args = new ArrayList<>(framework.serverArgs(params));
    args.addAll(List.of("--tls-cert", cert.chain().toString(), "--tls-key", cert.key().toString()));
    if (clientCa != null) {
      args.addAll(List.of("--tls-client-ca", clientCa.toString()));
    }
    return EmbeddedServer.start(framework.name(), framework.serverMainClass(), args);
  }

  private static Endpoints on(EmbeddedServer server, Tls tls) {
    return Endpoints.direct(server.address()).withTls(tls);
  }

  /** The first call fails with one line holding {@code expected}; else a line for the report. */
  private static void expect(List<String> failures, String framework, String what, RpcFramework<?, ?> f,
                             LoadParams params, Endpoints target, String expected) {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> EchoRun.probe(f, params, target, what),
        framework + " " + what + ": the call went through");
    String message = e.getMessage();
    System.out.println(framework + ", " + what + ": " + message);
    assertFalse(message.contains("\n"), framework + " " + what + ": more than one line: " + message);
    if (!message.contains(expected)) {
      failures.add(framework + ", " + what + ": expected '" + expected + "' in: " + message);
    }
  }
}
