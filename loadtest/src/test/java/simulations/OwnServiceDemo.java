package simulations;

import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static protocols.rpc.RpcChecks.code;
import static protocols.rpc.RpcChecks.echo;
import static protocols.rpc.RpcChecks.response;
import static protocols.dubbo.DubboDsl.dubbo;
import static protocols.grpc.GrpcDsl.grpc;
import static protocols.grpc.GrpcDsl.statusCode;
import static protocols.ice.IceDsl.ice;
import static protocols.thrift.ThriftDsl.thrift;

import contract.grpc.ListRequest;
import contract.grpc.MobileServiceGrpc;
import contract.grpc.OrderList;
import contract.thrift.MobileService.AsyncClient;
import contract.zeroc.IceSettings;
import contract.zeroc.MobileServicePrx;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.thrift.async.AsyncMethodCallback;
import protocols.frameworks.Frameworks;
import protocols.lab.EchoRun;
import protocols.lab.LabRun;
import protocols.load.Populations;
import protocols.rpc.InvocationMode;
import protocols.lab.LoadParams;
import protocols.lab.Parameters;
import protocols.lab.RpcFramework;
import protocols.ice.IceDynamic;

/**
 * The general DSL on the sample servers' second method, {@code listOrders(count)}: every way of
 * calling a method of your own service, on every framework (the ceiling has only the echo). Each
 * framework's chain runs {@code -Dusers} users for {@code -Dduration} seconds; {@code -DlistCount}
 * sets the orders per reply (the reply's size). Copy the chain of your framework to start your own.
 */
public class OwnServiceDemo extends Simulation {
  private final List<EchoRun> runs = new ArrayList<>();

  {
    LoadParams given = LoadParams.fromSystemProperties();
    List<RpcFramework<?, ?>> running = EchoRun.orExit(() -> Frameworks.parse(given.string("frameworks",
        "dubbo,thrift,grpc,ice")));
    LoadParams params = EchoRun.orExit(() -> given.checkNames(Frameworks.run("OwnServiceDemo",
        Set.of(Parameters.Use.DEMO), running, true)).validate().singleInjector("OwnServiceDemo"));
    int users = EchoRun.orExit(() -> params.intParam("users", 5, 1, 10_000));
    int count = EchoRun.orExit(() -> params.intParam("listCount", 10, 1, contract.SampleOrder.MAX_LIST));
    List<InvocationMode> modes = EchoRun.orExit(params::modes);
    List<PopulationBuilder> steps = new ArrayList<>();
    LabRun lab = new LabRun(params);
    for (RpcFramework<?, ?> framework : running) {
      EchoRun run = EchoRun.start(framework, params, Parameters.TARGET_PREFIX + framework.name(), lab);
      runs.add(run);
      for (InvocationMode mode : modes) {
        String tag = " (" + mode.label() + ")";
        ChainBuilder calls = EchoRun.orExit(() -> calls(run.framework().name(), tag, count));
        steps.add(scenario(run.framework().name() + tag)
            .exec(session -> session.set("count", count).set("user", session.userId()))
            .exec(during(params.duration(), false).on(calls)) // each pass makes every call of the chain, however slow
            .injectOpen(atOnceUsers(users))
            .protocols(run.protocol(mode), lab.protocol()));
      }
    }
    setUp(Populations.sequence(steps)).assertions(global().failedRequests().percent().lte(params.maxKoPercent()));
  }

  private static ChainBuilder calls(String framework, String tag, int count) {
    return switch (framework) {
      case "dubbo" -> ChainBuilder.EMPTY
          // an interface on the classpath: its CompletableFuture signature
          .exec(dubbo("dubbo listOrders" + tag).service(contract.dubbo.MobileService.class)
              .callAsync((contract.dubbo.MobileService s, Integer n) -> s.listOrdersAsync(n))
              .send("#{count}")
              .check(response((List<contract.pojo.Order> orders) -> orders.size()).is(count)))
          // generic invocation: no class of the service; the reply is maps
          .exec(dubbo("dubbo generic listOrders" + tag).generic("contract.dubbo.MobileService")
              .method("listOrders", "int")
              .send("[#{count}]")
              .check(response((Object reply) -> ((List<?>) reply).size()).is(count),
                  response((Object reply) -> ((List<?>) reply).get(0) instanceof Map).is(true)))
          // an error the service is expected to raise, checked by its code
          .exec(dubbo("dubbo listOrders bad count" + tag).service(contract.dubbo.MobileService.class)
              .call((contract.dubbo.MobileService s, Integer n) -> s.listOrders(n))
              .send(session -> -1)
              .check(code().is("IllegalArgumentException")));
      case "thrift" -> ChainBuilder.EMPTY
          .exec(thrift("thrift listOrders" + tag).client(AsyncClient.class)
              .call((AsyncClient c, Integer n, AsyncMethodCallback<List<contract.thrift.Order>> reply) ->
                  c.listOrders(n, reply))
              .blocking(contract.thrift.MobileService.Client.class, (c, n) -> c.listOrders(n))
              .send("#{count}")
              .check(response((List<contract.thrift.Order> orders) -> orders.size()).is(count)))
          .exec(thrift("thrift listOrders bad count" + tag).client(AsyncClient.class)
              .call((AsyncClient c, Integer n, AsyncMethodCallback<List<contract.thrift.Order>> reply) ->
                  c.listOrders(n, reply))
              .send(session -> -1)
              .check(code().is("BadRequest")));
      case "grpc" -> ChainBuilder.EMPTY
          // generated code, a header from the session, a deadline; the first order saved for the next call
          .exec(grpc("grpc ListOrders" + tag).unary(MobileServiceGrpc.getListOrdersMethod())
              .header("x-user", "#{user}")
              .deadline(java.time.Duration.ofSeconds(2))
              .send(session -> ListRequest.newBuilder().setCount(session.getInt("count")).build())
              .check(response(OrderList::getOrdersCount).is(count),
                  response((OrderList list) -> list.getOrders(0)).saveAs("first")))
          .exec(grpc("grpc Hello, chained" + tag).unary(MobileServiceGrpc.getHelloMethod())
              .send("#{first}")
              .check(echo()))
          // no generated code: JSON, the schema from a descriptor set, then from server reflection
          .exec(grpc("grpc ListOrders, descriptor set" + tag).unary("rpcloadlab.MobileService/ListOrders")
              .fromDescriptorSet("classpath:descriptor-sets/order.desc")
              .send("{\"count\": #{count}}")
              .check(response((com.google.protobuf.DynamicMessage m) -> m.getRepeatedFieldCount(
                  m.getDescriptorForType().findFieldByName("orders"))).is(count)))
          .exec(grpc("grpc ListOrders, reflection" + tag).unary("rpcloadlab.MobileService/ListOrders")
              .fromReflection()
              .send("{\"count\": #{count}}")
              .check(response((com.google.protobuf.DynamicMessage m) -> m.getRepeatedFieldCount(
                  m.getDescriptorForType().findFieldByName("orders"))).is(count)))
          // a stream without generated code: each JSON order echoed, its schema from reflection
          .exec(grpc("grpc Chat, reflection" + tag).bidiStream("rpcloadlab.MobileService/Chat")
              .fromReflection()
              .messages(count)
              .echoed()
              .send("{\"orderId\": #{count}, \"name\": \"#{user}\"}")
              .check(response(protocols.rpc.StreamResult::received).is((long) count)))
          .exec(grpc("grpc ListOrders bad count" + tag).unary(MobileServiceGrpc.getListOrdersMethod())
              .send(session -> ListRequest.newBuilder().setCount(-1).build())
              .check(statusCode(Status.Code.INVALID_ARGUMENT)));
      case "ice" -> ChainBuilder.EMPTY
          // a typed proxy: the async operation, and its blocking form for sync mode
          .exec(ice("ice listOrders" + tag).proxy(IceSettings.IDENTITY, MobileServicePrx::uncheckedCast)
              .call((MobileServicePrx p, Integer n) -> p.listOrdersAsync(n))
              .blocking((p, n) -> p.listOrders(n))
              .send("#{count}")
              .check(response((contract.zeroc.Order[] orders) -> orders.length).is(count)))
          // dynamic invocation: the in-parameters encoded by hand, the reply's sequence size decoded
          .exec(ice("ice dynamic listOrders" + tag).dynamic(IceSettings.IDENTITY, "listOrders")
              .send(session -> IceDynamic.encode(out -> out.writeInt(session.getInt("count"))))
              .check(response((byte[] out) -> IceDynamic.decode(out, in -> in.readSize())).is(count)))
          .exec(ice("ice listOrders bad count" + tag).proxy(IceSettings.IDENTITY, MobileServicePrx::uncheckedCast)
              .call((MobileServicePrx p, Integer n) -> p.listOrdersAsync(n))
              .send(session -> -1)
              .check(code().is("ice ::zeroc::BadRequest")));
      default -> throw new IllegalArgumentException("-Dframeworks: " + framework
          + " has no second method (the ceiling's wire format carries the echo only); choose from dubbo,thrift,grpc,ice");
    };
  }

  @Override
  public void after() {
    runs.forEach(EchoRun::stop);
  }
}
