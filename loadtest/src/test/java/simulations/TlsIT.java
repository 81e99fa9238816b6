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
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * TLS on every framework (Ice's through Debian's IceSSL, which .ci/run installs): each one with mutual
 * TLS in both invocation models (Thrift's sync only) in one shootout, and with TLS and mutual TLS on a
 * first call; and each bad certificate, or a client and server that do not
 * agree on TLS, fails the first call with one line naming what failed.
 */
class TlsIT {
  private static final Path RESULTS = Paths.get("target", "it-results", "tls");
  private static final List<String> WITH_TLS = List.of("dubbo", "triple", "thrift", "grpc", "ice", "netty");

  @Test
  void everyFrameworkSpeaksMutualTlsInBothInvocationModels() throws Exception {
    // Plaintext is every other IT's; the plaintext-against-TLS table is ComparisonReportTest's; -Dtls=true
    // (no client certificate asked for) is each framework's first call to a TLS server below.
    GatlingProcess.Result run = GatlingProcess.run("RpcShootout", Map.of("frameworks", "dubbo,triple,thrift,grpc,ice,netty",
        "tls", "mutual", "mode", "async,sync", "levels", "2", "duration", "1", "warmup", "0"),
        RESULTS.resolve("shootout"), Duration.ofMinutes(6));
    assertEquals(0, run.exitCode(), run.output());
    JsonNode summary = run.summary();
    JsonNode requests = summary.get("requests");
    for (String framework : WITH_TLS) {
      for (String tls : List.of(" mutual tls")) {
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
    int encrypted = 0;
    for (JsonNode p : summary.get("run").get("protocols")) {
      String tls = p.get("tls").asText();
      assertTrue(tls.startsWith("on: trusts ca.pem, client certificate client.pem; implementation "), tls);
      assertTrue(p.has("tlsMode"), p.toString());
      encrypted++;
    }
    // Each framework in each mode it can encrypt (Thrift: sync only).
    assertEquals(5 * 2 + 1, encrypted, summary.get("run").get("protocols").toString());
    Path folder = run.runFolder();
    assertTrue(Files.exists(folder.resolve("tls").resolve("ca.pem")), "the run keeps its throwaway CA");
  }

  /** The certificates of the bad cases, made once for every framework. */
  private record Certificates(ThrowawayCa ca, ThrowawayCa other, ThrowawayCa.Issued good, ThrowawayCa.Issued expired,
                              ThrowawayCa.Issued elsewhere, ThrowawayCa.Issued client, ThrowawayCa.Issued stranger) {
    static Certificates make(Path dir) {
      ThrowawayCa ca = ThrowawayCa.create(dir, "ca");
      ThrowawayCa other = ThrowawayCa.create(dir, "other-ca");
      return new Certificates(ca, other, ca.server("server", ThrowawayCa.LOOPBACK),
          ca.expiredServer("expired", ThrowawayCa.LOOPBACK), ca.server("elsewhere", List.of("rpc.example.org")),
          ca.client("client"), other.client("stranger"));
    }

    /** The client as it should be: the run's CA, its certificate. */
    Tls trusting() {
      return Tls.trusting(ca.certificate()).identity(client.chain(), client.key());
    }
  }

  @Test
  void eachBadCertificateFailsTheFirstCallInOneLineNamingWhatFailed() throws Exception {
    Certificates certificates = Certificates.make(Files.createDirectories(RESULTS.resolve("certificates")));
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    // Dubbo and Triple first, alone: beside another IT's load a cold Triple server once took over 10 s (its client's
    // TLS connect bound, DubboConnectionSettings) to its handshake and HTTP/2 preface. Then the others two at a
    // time: most of each case is waiting (a JVM's start, a timeout).
    Frameworks.byName("dubbo").protocol(new LoadParams(Map.of())).beforeTlsClients(); // before this JVM's first TLS client
    for (String name : List.of("dubbo", "triple")) {
      badCases(Frameworks.byName(name), certificates, failures);
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> each = new ArrayList<>();
    for (List<String> names : List.of(List.of("thrift", "grpc"), List.of("ice", "netty"))) {
      each.add(pool.submit(() -> {
        for (String name : names) {
          badCases(Frameworks.byName(name), certificates, failures);
        }
        return null;
      }));
    }
    pool.shutdown();
    for (Future<?> f : each) {
      f.get(5, TimeUnit.MINUTES);
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  /**
   * One framework's servers for the bad cases: TLS, mutual TLS, an expired certificate, another host's,
   * plaintext; its first call to the first two, with the client as it should be, goes through.
   */
  private static void badCases(RpcFramework<?, ?> framework, Certificates c, List<String> failures) {
    LoadParams params = new LoadParams(Map.of());
    String name = framework.name();
    boolean dubbo = name.equals("dubbo") || name.equals("triple");
    Tls trusting = c.trusting();
    // The five servers start together: one after the other, their JVMs' starts were most of this test.
    List<EmbeddedServer> servers = startTogether(List.of(
        () -> server(framework, params, c.good(), null),
        () -> server(framework, params, c.good(), c.ca().certificate()),
        () -> server(framework, params, c.expired(), null),
        () -> server(framework, params, c.elsewhere(), null),
        () -> EmbeddedServer.start(name, framework.serverMainClass(), framework.serverArgs(params))));
    try {
      EmbeddedServer tls = servers.get(0);
      EmbeddedServer mutual = servers.get(1);
      EmbeddedServer old = servers.get(2);
      EmbeddedServer otherHost = servers.get(3);
      EmbeddedServer plaintext = servers.get(4);
      EchoRun.probe(framework, params, on(tls, trusting), "-Dtls=true"); // the servers are right
      EchoRun.probe(framework, params, on(mutual, trusting), "-Dtls=mutual");
      expect(failures, "wrong CA", framework, params, on(mutual, Tls.trusting(c.other().certificate())
          .identity(c.client().chain(), c.client().key())), "not signed by a CA this client trusts");
      expect(failures, "expired", framework, params, on(old, trusting), "has expired");
      if (dubbo) { // Dubbo's client makes its TLS engine without the server's host: it checks no name
        assertDoesNotThrow(() -> EchoRun.probe(framework, params, on(otherHost, trusting), "wrong host"), name);
      } else {
        expect(failures, "wrong host", framework, params, on(otherHost, trusting), "is not for 127.0.0.1");
      }
      // Dubbo makes a TLS client only with a certificate: one the server's CA did not sign, for it.
      Tls noCertificate = dubbo ? Tls.trusting(c.ca().certificate()).identity(c.stranger().chain(),
          c.stranger().key()) : Tls.trusting(c.ca().certificate());
      expect(failures, "no client certificate", framework, params, on(mutual, noCertificate), "client certificate");
      expect(failures, "plaintext client", framework, params, on(mutual, null),
          "if the server speaks TLS, run with -Dtls=true");
      expect(failures, "TLS client, plaintext server", framework, params, on(plaintext, trusting), "TLS:");
    } finally {
      closeTogether(servers);
    }
  }

  /** Starts each server on its own thread; if one fails, the others are closed and its error thrown. */
  private static List<EmbeddedServer> startTogether(List<Supplier<EmbeddedServer>> starts) {
    List<CompletableFuture<EmbeddedServer>> started = starts.stream()
        .map(s -> CompletableFuture.supplyAsync(s, TlsIT::onItsOwnThread)).toList();
    try {
      CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      closeTogether(started.stream().filter(f -> !f.isCompletedExceptionally()).map(CompletableFuture::join).toList());
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    return started.stream().map(CompletableFuture::join).toList();
  }

  private static void onItsOwnThread(Runnable r) {
    new Thread(r, "tls-it-server").start();
  }

  /** Closes the servers together: each waits for its JVM to exit (Dubbo's take a second or more). */
  private static void closeTogether(List<EmbeddedServer> servers) {
    CompletableFuture.allOf(servers.stream().map(s -> CompletableFuture.runAsync(s::close,
        TlsIT::onItsOwnThread)).toArray(CompletableFuture[]::new)).join();
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
  private static void expect(List<String> failures, String what, RpcFramework<?, ?> f, LoadParams params,
                             Endpoints target, String expected) {
    String framework = f.name();
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
