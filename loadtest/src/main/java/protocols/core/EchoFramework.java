package protocols.core;

import io.gatling.javaapi.core.ActionBuilder;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What an echo run needs to know of one framework: its server, its protocol as the -D parameters
 * configure it, and its request. Each framework package has one; simulations, the shootout and the
 * plain driver all work from it.
 *
 * @param <Req> the framework's Order type
 */
public abstract class EchoFramework<Req> {

  /** Short name: request names, -Dframeworks, -Dtarget.NAME. */
  public abstract String name();

  /** The echo server's main class, started in its own JVM when there is no -Dtarget. */
  public abstract String serverMainClass();

  /** The embedded server's framework flags, from the -D parameters (e.g. Dubbo's serialization). */
  public List<String> serverArgs(LoadParams params) {
    return List.of();
  }

  /** The protocol builder with the framework's own -D parameters applied; shared ones come later. */
  public abstract RpcProtocolBuilder<?> protocol(LoadParams params);

  /** A request named {@code name}. */
  public abstract RpcRequestBuilder<Req, Req> request(String name);

  /** The write-ups' sample order with the given id. */
  public abstract Req order(long orderId);

  /** The echo call every level makes: a fresh order id per call, so no reply can be cached. */
  public ActionBuilder echoCall(String requestName) {
    return request(requestName).hello(session -> order(ThreadLocalRandom.current().nextLong()));
  }
}
