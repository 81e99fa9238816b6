package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.rpc.RpcChecks.echo;
import static protocols.rpc.RpcChecks.field;
import static protocols.rpc.RpcChecks.response;
import static protocols.thrift.ThriftDsl.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.async.AsyncMethodCallback;
import protocols.rpc.SystemProperty;
import protocols.thrift.ThriftProtocol;

/**
 * A Thrift service of one's own through its generated async client, with the plugin's DSL and Gatling
 * alone: {@code ./mvnw gatling:test -Dsimulation=ThriftOwnService -Dtarget=host:port} (framed transport,
 * binary protocol). Copy it, and swap in your generated classes.
 */
public class ThriftOwnService extends Simulation {
  private final int users = Integer.getInteger("users", 5);
  private final Duration duration = Duration.ofSeconds(Long.getLong("duration", 10));

  private final ThriftProtocol protocol = thrift.target(SystemProperty.get("target", "127.0.0.1:9090"))
      .timeout(Duration.ofSeconds(2));

  private final ScenarioBuilder orders = scenario("orders")
      .during(duration, false).on(exec(
          thrift("listOrders").client(MobileService.AsyncClient.class)
              .call((MobileService.AsyncClient c, Integer n, AsyncMethodCallback<List<Order>> reply) ->
                  c.listOrders(n, reply))
              .send(session -> 10)
              .check(field("[9].orderId").is(9), response((List<Order> list) -> list.get(0)).saveAs("first")),
          thrift("hello").client(MobileService.AsyncClient.class)
              .call((MobileService.AsyncClient c, Order o, AsyncMethodCallback<Order> reply) -> c.hello(o, reply))
              .send("#{first}")
              .check(echo())));

  {
    setUp(orders.injectOpen(atOnceUsers(users))).protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }
}
