package simulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import protocols.frameworks.Frameworks;
import protocols.lab.RpcFramework;
import protocols.lab.EmbeddedServer;
import protocols.rpc.Errors;
import protocols.rpc.InvocationMode;
import protocols.lab.LoadParams;
import protocols.rpc.RpcClient;

/**
 * A message over a size limit is a KO that names the limit and how to raise it, on every framework
 * (a 2 MB request once failed as "Broken pipe" on Thrift and Ice, and as a Kryo buffer overflow on
 * the ceiling), and -DmaxMessageBytes raises the limit of client and embedded server alike.
 */
class SizeLimitsIT {
  @ParameterizedTest
  @CsvSource({"dubbo, 8388608, --payload", "triple, 8388608, --max-message", "thrift, 1048576, --max-frame", "grpc, 1048576, --max-message",
      "ice, 1048576, --max-message", "netty, 65536, --max-frame"})
  void aRequestOverTheLimitIsAKoThatNamesItAndMaxMessageBytesRaisesIt(String name, int limit, String flag)
      throws Exception {
    String chars = Integer.toString(limit + 1000);
    String refused = call(name, Map.of("orderNameChars", chars), Map.of("orderNameChars", chars));
    assertNotNull(refused, name + ": the call went through");
    assertTrue(refused.contains(" is over the " + limit + "-byte " + name + " message limit: raise it with"
        + " -DmaxMessageBytes"), refused);
    assertTrue(refused.endsWith("on a server of your own with " + flag), refused);

    Map<String, String> raised = Map.of("orderNameChars", chars, "maxMessageBytes", Integer.toString(2 * limit));
    assertEquals(null, call(name, raised, raised), name + ": -DmaxMessageBytes raises both sides");
  }

  @ParameterizedTest
  @CsvSource({"grpc, 1048576", "ice, 1048576"})
  void aReplyOverTheClientsLimitSaysSo(String name, int limit) throws Exception {
    // A server of your own with a larger limit: the request goes through, its echo does not.
    String chars = Integer.toString(limit + 1000);
    String refused = call(name, Map.of("orderNameChars", chars, "maxMessageBytes", Integer.toString(2 * limit)),
        Map.of("orderNameChars", chars));
    assertNotNull(refused, name + ": the reply went through");
    // gRPC words both sides alike, and an echo's reply is as large as its request: it cannot tell which.
    assertTrue((refused.startsWith("reply of ") || refused.startsWith("message of "))
        && refused.contains(" is over the " + limit + "-byte " + name), refused);
  }

  /**
   * One async echo of the order {@code clientParams} describe, to a server started with
   * {@code serverParams}: null if it succeeds, else the size-limit KO message (fails if the error
   * is not one).
   */
  @SuppressWarnings("unchecked")
  private static String call(String name, Map<String, String> serverParams, Map<String, String> clientParams)
      throws Exception {
    RpcFramework<RpcClient, Object> framework = (RpcFramework<RpcClient, Object>) Frameworks.byName(name);
    LoadParams server = new LoadParams(serverParams);
    LoadParams client = new LoadParams(clientParams);
    try (EmbeddedServer s = EmbeddedServer.start(name, framework.serverMainClass(), framework.serverArgs(server));
         RpcClient c = framework.newClient(client, s.address(), InvocationMode.ASYNC,
             Duration.ofSeconds(10))) {
      Object order = framework.order(1, client);
      Throwable cause;
      try {
        Object reply = framework.echo(c).callAsync(c, order).toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertEquals(order, reply, name + ": echo");
        return null;
      } catch (ExecutionException e) {
        cause = Errors.unwrap(e);
      } catch (RuntimeException e) {
        cause = e; // Dubbo throws from its proxy; the core takes that as the call's failure too
      }
      String limit = c.sizeLimit(cause, order);
      assertNotNull(limit, name + ": not taken for a size limit: " + Errors.oneLine(cause));
      return limit;
    }
  }
}
