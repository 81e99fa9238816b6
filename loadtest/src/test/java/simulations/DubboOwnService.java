package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.dubbo.DubboDsl.dubbo;
import static protocols.rpc.RpcChecks.field;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import protocols.dubbo.DubboProtocol;
import protocols.rpc.Registry;
import protocols.rpc.SystemProperty;

/**
 * A Dubbo provider of one's own, called without its interface's jar (generic invocation), with the plugin's
 * DSL and Gatling alone: {@code ./mvnw gatling:test -Dsimulation=DubboOwnService -Dtarget=host:port}, or
 * {@code -Dregistry=zookeeper://host:port} to find it through ZooKeeper; {@code -Dservice} names the
 * interface. Copy it, and swap in your methods and their JSON arguments.
 */
public class DubboOwnService extends Simulation {
  private final int users = Integer.getInteger("users", 5);
  private final Duration duration = Duration.ofSeconds(Long.getLong("duration", 10));
  private final String service = SystemProperty.get("service", "contract.dubbo.MobileService");

  private final DubboProtocol protocol = SystemProperty.get("registry")
      .map(registry -> dubbo.registry(Registry.parse(registry)))
      .orElseGet(() -> dubbo.target(SystemProperty.get("target", "127.0.0.1:20880")))
      .timeout(Duration.ofSeconds(2));

  // Ten orders back as maps; the first one's id goes into an order of our own, which must come back unchanged.
  private final ScenarioBuilder orders = scenario("orders")
      .during(duration, false).on(exec(
          dubbo("listOrders").generic(service).method("listOrders", "int")
              .send("[10]")
              .check(field("[9].orderId").is(9), field("[0].orderId").saveAs("id")),
          dubbo("hello").generic(service).method("hello", "contract.pojo.Order")
              .send("[{\"orderId\": #{id}, \"name\": \"first hour\"}]")
              .check(field("orderId").isEL("#{id}"), field("name").is("first hour"))));

  {
    setUp(orders.injectOpen(atOnceUsers(users))).protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }
}
