package protocols;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static protocols.dubbo.DubboDsl.dubbo;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.ice.IceDsl.ice;
import static protocols.netty.NettyDsl.netty;
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
import protocols.netty.NettyDsl;
import protocols.netty.NettyProtocolBuilder;
import org.junit.jupiter.api.Test;
import protocols.core.RpcCallActionBuilder;
import protocols.core.RpcSettings;
import protocols.thrift.ThriftDsl;
import protocols.thrift.ThriftProtocolBuilder;

/**
 * Calls every DSL method, as Gatling's own JmsJavaCompileTest, so a change that breaks the DSL breaks
 * the build; and, run by Surefire, checks that the builders hold what was given and stay immutable.
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

  GrpcProtocolBuilder grpcProtocol = grpc.target("127.0.0.1", 50051).connections(4).maxMessageBytes(4096);

  IceProtocolBuilder iceProtocol = ice.target("127.0.0.1", 10000).connections(2).maxMessageBytes(4096);

  NettyProtocolBuilder nettyProtocol = netty.target("127.0.0.1", 7000).connections(2).timeout(Duration.ofMillis(500));

  RpcCallActionBuilder<Order, Order> checked = dubbo("echo").hello("#{order}")
      .check((request, reply) -> reply.getAmount() > 0 ? null : "no amount");

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
      .exec(ice("echo").hello(session -> IceDsl.order(1)))
      .exec(netty("echo").hello(session -> NettyDsl.order(1)).echoCheck(true))
      .exec(checked);

  {
    setUp(scn.injectOpen(atOnceUsers(1))).protocols(dubboProtocol, thriftProtocol, grpcProtocol, iceProtocol,
        nettyProtocol);
  }

  @Test
  void buildersHoldWhatWasGivenAndNeverChangeInPlace() {
    RpcSettings s = dubboProtocol.settings();
    assertEquals(20880, s.port());
    assertEquals(InvocationMode.SYNC, s.mode());
    assertEquals(2, s.connections());
    assertEquals(Duration.ofSeconds(2), s.timeout());
    assertEquals(InvocationMode.ASYNC, dubbo.settings().mode(), "the shared default builder is untouched");
    assertEquals(0, dubbo.settings().connections());
    assertEquals(RpcSettings.DEFAULT_TIMEOUT, dubbo.settings().timeout());
    assertEquals(2, nettyProtocol.settings().connections());
    assertEquals(Duration.ofMillis(500), nettyProtocol.settings().timeout());
    assertEquals(8, thriftProtocol.settings().connections());
    assertEquals(4, grpcProtocol.settings().connections());
    assertEquals(2, iceProtocol.settings().connections());
    assertNotSame(checked, checked.echoCheck(false), "every builder method returns a new builder");
    for (var p : new io.gatling.javaapi.core.ProtocolBuilder[] {dubboProtocol, thriftProtocol, grpcProtocol,
        iceProtocol, nettyProtocol}) {
      assertNotNull(p.protocol());
    }
    assertNotNull(checked.asScala());
    assertNotNull(scn);
  }
}
