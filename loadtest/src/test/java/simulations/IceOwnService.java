package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.ice.IceDsl.ice;
import static protocols.rpc.RpcChecks.echo;
import static protocols.rpc.RpcChecks.field;
import static protocols.rpc.RpcChecks.response;

import contract.zeroc.MobileServicePrx;
import contract.zeroc.Order;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import protocols.ice.IceProtocol;
import protocols.rpc.SystemProperty;

/**
 * An Ice object of one's own through its generated proxy, with the plugin's DSL and Gatling alone:
 * {@code ./mvnw gatling:test -Dsimulation=IceOwnService -Dtarget=host:port -Didentity=echo}. Copy it, and
 * swap in your proxy and operations.
 */
public class IceOwnService extends Simulation {
  private final int users = Integer.getInteger("users", 5);
  private final Duration duration = Duration.ofSeconds(Long.getLong("duration", 10));
  private final String identity = SystemProperty.get("identity", "echo");

  private final IceProtocol protocol = ice.target(SystemProperty.get("target", "127.0.0.1:10000"))
      .timeout(Duration.ofSeconds(2));

  private final ScenarioBuilder orders = scenario("orders")
      .during(duration, false).on(exec(
          ice("listOrders").proxy(identity, MobileServicePrx::uncheckedCast)
              .call((MobileServicePrx p, Integer n) -> p.listOrdersAsync(n))
              .send(session -> 10)
              .check(field("[9].orderId").is(9), response((Order[] list) -> list[0]).saveAs("first")),
          ice("hello").proxy(identity, MobileServicePrx::uncheckedCast)
              .call((MobileServicePrx p, Order o) -> p.helloAsync(o))
              .send("#{first}")
              .check(echo())));

  {
    setUp(orders.injectOpen(atOnceUsers(users))).protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }
}
