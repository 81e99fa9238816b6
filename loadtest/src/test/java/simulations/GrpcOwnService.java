package simulations;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.rpc.RpcChecks.echo;
import static protocols.rpc.RpcChecks.response;

import contract.grpc.ListRequest;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.OrderList;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import protocols.grpc.GrpcProtocol;
import protocols.rpc.SystemProperty;

/**
 * A simulation of one's own gRPC service, written with the plugin's DSL and Gatling alone: your
 * generated code, your checks, Gatling's injection and assertions. Run it against your server with
 * {@code ./mvnw gatling:test -Dsimulation=GrpcOwnService -Dtarget=host:port}; the µs report
 * (rpc-report.html) comes with the plugin. Copy it, and swap in your service's methods.
 */
public class GrpcOwnService extends Simulation {
  private final int users = Integer.getInteger("users", 5);
  private final Duration duration = Duration.ofSeconds(Long.getLong("duration", 10));

  private final GrpcProtocol protocol = grpc
      .target(SystemProperty.get("target", "127.0.0.1:50051")) // as typed, also under the Maven plugin
      .timeout(Duration.ofSeconds(2));

  // Ten orders per reply; the first one is sent back to the echo method, which must return it unchanged.
  // (exitASAP false: a user ends its loop after its Hello, not between the two calls.)
  private final ScenarioBuilder orders = scenario("orders")
      .during(duration, false).on(exec(
          grpc("ListOrders").unary(MobileServiceGrpc.getListOrdersMethod())
              .send(session -> ListRequest.newBuilder().setCount(10).build())
              .check(response(OrderList::getOrdersCount).is(10),
                  response((OrderList list) -> list.getOrders(0)).saveAs("first")),
          grpc("Hello").unary(MobileServiceGrpc.getHelloMethod())
              .send("#{first}")
              .check(echo())));

  {
    setUp(orders.injectOpen(atOnceUsers(users))).protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }
}
