package protocols;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.dubbo.DubboDsl.dubbo;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.ice.IceDsl.ice;
import static protocols.thrift.ThriftDsl.thrift;

import contract.pojo.Order;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import protocols.core.InvocationMode;
import protocols.core.RpcCheck;
import protocols.dubbo.DubboDsl;
import protocols.dubbo.DubboProtocolBuilder;
import protocols.grpc.GrpcDsl;
import protocols.grpc.GrpcProtocolBuilder;
import protocols.ice.IceDsl;
import protocols.ice.IceProtocolBuilder;
import protocols.thrift.ThriftDsl;
import protocols.thrift.ThriftProtocolBuilder;

/**
 * Compiled, never run (as Gatling's own JmsJavaCompileTest): it calls every DSL method, so a change
 * that breaks the DSL breaks the build.
 */
public class DslCompileTest extends Simulation {

  DubboProtocolBuilder dubboProtocol = dubbo
      .target("127.0.0.1", 20880)
      .target("127.0.0.1:20880")
      .timeout(Duration.ofSeconds(2))
      .mode(InvocationMode.SYNC)
      .async()
      .sync()
      .syncThreads(200)
      .connections(2)
      .serialization("kryo");

  ThriftProtocolBuilder thriftProtocol = thrift.target("127.0.0.1:9090").wireProtocol("compact").connections(8);

  GrpcProtocolBuilder grpcProtocol = grpc.target("127.0.0.1", 50051).connections(4).maxInboundMessageSize(4096);

  IceProtocolBuilder iceProtocol = ice.target("127.0.0.1", 10000).connections(2).messageSizeMax(4096);

  ScenarioBuilder scn = scenario("dsl")
      .exec(session -> session.set("order", DubboDsl.order(1)))
      .exec(dubbo("echo #{order}").hello("#{order}"))
      .exec(dubbo("echo").hello(session -> DubboDsl.order(session.userId())))
      .exec(dubbo("echo").hello(session -> session.<Order>get("order")).echoCheck(false))
      .exec(dubbo("echo").hello("#{order}")
          .check(RpcCheck.echo())
          .check((request, reply) -> reply.getAmount() > 0 ? null : "no amount"))
      .exec(thrift("echo").hello(session -> ThriftDsl.order(1)))
      .exec(grpc("echo").hello(session -> GrpcDsl.order(1))
          .check((request, reply) -> reply.getOrderId() == request.getOrderId() ? null : "other order"))
      .exec(ice("echo").hello(session -> IceDsl.order(1)));

  {
    setUp(scn.injectOpen(atOnceUsers(1))).protocols(dubboProtocol, thriftProtocol, grpcProtocol, iceProtocol);
  }
}
