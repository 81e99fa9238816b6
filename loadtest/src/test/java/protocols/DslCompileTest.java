package protocols;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static protocols.rpc.RpcChecks.code;
import static protocols.rpc.RpcChecks.echo;
import static protocols.rpc.RpcChecks.response;
import static protocols.dubbo.DubboDsl.dubbo;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.grpc.GrpcDsl.statusCode;
import static protocols.ice.IceDsl.ice;
import static protocols.netty.NettyDsl.netty;
import static protocols.thrift.ThriftDsl.thrift;

import com.google.protobuf.DynamicMessage;
import contract.dubbo.MobileService;
import contract.grpc.ListRequest;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.OrderList;
import contract.pojo.Order;
import contract.zeroc.MobileServicePrx;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import protocols.rpc.HostPort;
import protocols.rpc.Registry;
import org.junit.jupiter.api.Test;
import protocols.rpc.InvocationMode;
import protocols.load.OpenLoad;
import protocols.rpc.RpcCallActionBuilder;
import protocols.rpc.RpcSettings;
import protocols.rpc.Tls;
import protocols.dubbo.DubboClient;
import protocols.dubbo.DubboDsl;
import protocols.dubbo.DubboProtocol;
import protocols.grpc.GrpcDsl;
import protocols.grpc.GrpcProtocol;
import protocols.grpc.GrpcRequest;
import protocols.ice.IceDsl;
import protocols.ice.IceDynamic;
import protocols.ice.IceProtocol;
import protocols.netty.NettyDsl;
import protocols.netty.NettyProtocol;
import protocols.thrift.ThriftDsl;
import protocols.thrift.ThriftProtocol;

/**
 * Calls every DSL method, as Gatling's own JmsJavaCompileTest, so a change that breaks the DSL breaks
 * the build; and, run by Surefire, checks that the builders hold what was given and stay immutable.
 */
public class DslCompileTest extends Simulation {

  DubboProtocol dubboProtocol = dubbo
      .target("127.0.0.1", 20880)
      .target("127.0.0.1:20880")
      .timeout(Duration.ofSeconds(2))
      .mode(InvocationMode.SYNC)
      .async()
      .sync()
      .syncThreads(200)
      .connections(2)
      .koPause(Duration.ofMillis(50))
      .serialization("kryo")
      .registry(Registry.zookeeper("127.0.0.1", 2181))
      .loadbalance("roundrobin")
      .cluster("failover")
      .retries(1);

  ThriftProtocol thriftProtocol = thrift.target("127.0.0.1:9090").wireProtocol("compact").connections(8)
      .targets(List.of("127.0.0.1:9090", "127.0.0.1:9091"));

  GrpcProtocol grpcProtocol = grpc.target("127.0.0.1", 50051).connections(4).maxMessageBytes(4096)
      .targets(HostPort.parse("127.0.0.1:50051"), HostPort.parse("127.0.0.1:50052"));

  IceProtocol iceProtocol = ice.target("127.0.0.1", 10000).connections(2).maxMessageBytes(4096)
      .registry(Registry.icegrid("127.0.0.1", 4061)).adapterId("EchoGroup");

  NettyProtocol nettyProtocol = netty.target("127.0.0.1", 7000).connections(2).timeout(Duration.ofMillis(500));

  // TLS: CAs and the client's own certificate as PEM or PKCS#12, a server name, the implementation.
  GrpcProtocol grpcTls = grpc.target("127.0.0.1", 50051).tls(Tls.trusting(java.nio.file.Path.of("ca.pem"))
      .identity(java.nio.file.Path.of("client.pem"), java.nio.file.Path.of("client.key"))
      .serverName("echo.internal").provider(Tls.Provider.JDK));
  NettyProtocol nettyTls = netty.target("127.0.0.1", 7000).tls(Tls.trustingStore(java.nio.file.Path.of("ca.p12"), "pw")
      .identityStore(java.nio.file.Path.of("client.p12"), "pw"));
  ThriftProtocol thriftTls = thrift.target("127.0.0.1:9090").sync().tls(Tls.trustingJdkCas());

  RpcCallActionBuilder<DubboClient, Order, Order> checked = dubbo("echo")
      .service(MobileService.class)
      .callAsync(MobileService::helloAsync)
      .send("#{order}")
      .check(echo(), response(Order::getAmount).satisfies("positive", a -> a > 0));

  GrpcRequest<ListRequest, OrderList> listOrders = grpc("list")
      .unary(MobileServiceGrpc.getListOrdersMethod())
      .header("x-user", "#{userId}")
      .deadline(Duration.ofMillis(800));

  OpenLoad open = OpenLoad.rates(1_000, 5_000).during(Duration.ofSeconds(30)).ramp(Duration.ofSeconds(5))
      .maxInFlight(2_000);

  ScenarioBuilder scn = scenario("dsl")
      .exec(session -> session.set("order", DubboDsl.order(1)).set("count", 5))
      // Dubbo: an interface's blocking signature, its future one, both; version, group; generic.
      .exec(dubbo("echo #{order}").service(MobileService.class).version("1.0.0").group("eu")
          .call(MobileService::hello).send("#{order}").check(echo()))
      .exec(dubbo("list").service(MobileService.class)
          .call((MobileService s, Integer n) -> s.listOrders(n), (s, n) -> s.listOrdersAsync(n))
          .send(session -> session.getInt("count"))
          .check(response((List<Order> orders) -> orders.size()).is(5)))
      .exec(dubbo("generic").generic("contract.dubbo.MobileService").version("").group("")
          .method("listOrders", "int").send("[#{count}]")
          .check(response(reply -> ((List<?>) reply).size()).is(session -> session.getInt("count"))))
      // gRPC: generated code with headers and a deadline; JSON without generated code.
      .exec(listOrders.send(session -> ListRequest.newBuilder().setCount(3).build())
          .check(response(OrderList::getOrdersCount).is(3).saveAs("listed"), statusCode(Status.Code.OK)))
      .exec(grpc("echo").unary(MobileServiceGrpc.getHelloMethod()).send(session -> GrpcDsl.order(1)).check(echo()))
      .exec(grpc("reflected").unary("rpcloadlab.MobileService/ListOrders").fromReflection()
          .header("x-trace", "on").deadline(Duration.ofSeconds(1))
          .send("{\"count\": #{count}}")
          .check(response((DynamicMessage m) -> m.getAllFields().size()).not(0)))
      .exec(grpc("bad count").unary(MobileServiceGrpc.getListOrdersMethod())
          .send(session -> ListRequest.newBuilder().setCount(-1).build())
          .check(statusCode(Status.Code.INVALID_ARGUMENT)))
      // Thrift: the generated async client and a lambda; its blocking form for sync mode.
      .exec(thrift("list").client(contract.thrift.MobileService.AsyncClient.class)
          .call((contract.thrift.MobileService.AsyncClient c, Integer n, org.apache.thrift.async.AsyncMethodCallback<List<contract.thrift.Order>> reply) -> c.listOrders(n, reply))
          .blocking(contract.thrift.MobileService.Client.class, (c, n) -> c.listOrders(n))
          .send("#{count}")
          .check(response((List<contract.thrift.Order> orders) -> orders.size()).isEL("#{count}")))
      .exec(thrift("echo").client(contract.thrift.MobileService.AsyncClient.class)
          .call(contract.thrift.MobileService.AsyncClient::hello).send(session -> ThriftDsl.order(1)).check(echo()))
      // Ice: a typed proxy and a lambda; dynamic invocation.
      .exec(ice("list").proxy("echo", MobileServicePrx::uncheckedCast)
          .call((MobileServicePrx p, Integer n) -> p.listOrdersAsync(n)).blocking((p, n) -> p.listOrders(n))
          .send(session -> session.getInt("count"))
          .check(response((contract.zeroc.Order[] orders) -> orders.length).is(5), code().is("OK")))
      .exec(ice("dynamic").dynamic("echo", "listOrders")
          .send(session -> IceDynamic.encode(out -> out.writeInt(session.getInt("count"))))
          .check(response((byte[] out) -> IceDynamic.decode(out, in -> in.readSize())).is(5)))
      .exec(ice("echo").proxy("echo", MobileServicePrx::uncheckedCast)
          .call((MobileServicePrx p, contract.zeroc.Order o) -> p.helloAsync(o))
          .send(session -> IceDsl.order(1)).check(echo()))
      // the ceiling: its one method
      .exec(netty("echo").send(session -> NettyDsl.order(1)).check(echo()))
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
    assertEquals("kryo", dubboProtocol.serialization());
    assertEquals(InvocationMode.ASYNC, dubbo.settings().mode(), "the shared default builder is untouched");
    assertEquals(0, dubbo.settings().connections());
    assertEquals(RpcSettings.DEFAULT_TIMEOUT, dubbo.settings().timeout());
    assertEquals(2, nettyProtocol.settings().connections());
    assertEquals(Duration.ofMillis(500), nettyProtocol.settings().timeout());
    assertEquals(8, thriftProtocol.settings().connections());
    assertEquals(4, grpcProtocol.settings().connections());
    assertEquals(2, iceProtocol.settings().connections());
    assertNotSame(checked, checked.check(echo()), "every builder method returns a new builder");
    assertNotSame(listOrders, listOrders.header("a", "b"));
    for (var p : new io.gatling.javaapi.core.ProtocolBuilder[] {dubboProtocol, thriftProtocol, grpcProtocol,
        iceProtocol, nettyProtocol}) {
      assertSame(p, p.protocol(), "a protocol is its own Gatling protocol: " + p);
    }
    assertEquals("echo.internal", grpcTls.settings().tls().serverName().orElseThrow());
    assertEquals(Tls.Provider.JDK, grpcTls.settings().tls().provider());
    assertTrue(nettyTls.settings().tls().hasIdentity());
    assertNull(grpcTls.plaintext().settings().tls(), "plaintext() drops TLS");
    assertNull(grpcProtocol.settings().tls(), "plaintext by default");
    // IceSSL has no server-name override (and without Debian's IceSSL jar, Ice has no TLS at all).
    IllegalArgumentException ice = assertThrows(IllegalArgumentException.class,
        () -> iceProtocol.tls(Tls.trustingJdkCas().serverName("echo.internal")));
    assertTrue(ice.getMessage().startsWith("ice: "), ice.getMessage());
    assertThrows(IllegalArgumentException.class, () -> dubboProtocol.tls(Tls.trustingJdkCas()),
        "Dubbo's TLS client needs a client certificate");
    assertEquals("echo", checked.name());
    assertEquals("dsl", scn.injectOpen(atOnceUsers(1)).asScala().scenarioBuilder().name());
    assertEquals(2, open.populations("orders", checked).size(), "one population per rate");
    assertEquals(12, OpenLoad.auto(1_000, 12).populations("search", checked).size(), "auto: one per possible level");
    var chained = open.population("orders", checked).asScala();
    assertEquals("orders 1000 calls/s", chained.scenarioBuilder().name(), "the first rate runs first");
    assertEquals("orders 5000 calls/s", chained.children().head().head().scenarioBuilder().name(),
        "then the second, after it");
    assertNotSame(open, open.maxInFlight(10));
  }

  @Test
  void badDslInputSaysWhatIsWrongWhenTheSimulationIsBuilt() {
    assertEquals("a gRPC method's full name is package.Service/Method, got 'ListOrders'",
        assertThrows(IllegalArgumentException.class, () -> grpc("x").unary("ListOrders")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> listOrders.header("Bad Header", "v"));
    assertThrows(IllegalArgumentException.class, () -> listOrders.deadline(Duration.ZERO));
    assertEquals("java.lang.String is not an interface",
        assertThrows(IllegalArgumentException.class, () -> dubbo("x").service(String.class)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> grpc("x").unary("a.B/C").fromDescriptorSet("no-such.desc"));
    assertEquals("a rate must be at least 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> OpenLoad.rates(1_000, 0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> open.maxInFlight(0));
    assertEquals(GrpcProtocol.class, GrpcProtocol.KEY.protocolClass(), "Gatling finds the gRPC protocol by its key");
  }
}
