package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static protocols.dubbo.DubboDsl.dubbo;

import contract.dubbo.MobileService;
import contract.pojo.Order;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.dubbo.DubboClient;
import protocols.dubbo.DubboDsl;
import protocols.dubbo.lab.DubboFramework;
import protocols.ice.lab.IceFramework;
import protocols.rpc.Registry;
import servers.dubbo.DubboEchoServer;

/**
 * A registry with nothing behind it, through the frameworks' own clients: a provider that registered in
 * ZooKeeper and died before the first call, and an IceGrid registry no provider registered with. Each
 * is one line, in bounded time; and the registry the lab started is gone once it is closed.
 */
class RegistryServerIT {
  private static final LoadParams PARAMS = new LoadParams(Map.of());

  @Test
  void aDubboProviderThatRegisteredAndDiedBeforeTheFirstCallIsOneLine() {
    try (RegistryServer zookeeper = RegistryServer.start(Registry.Kind.ZOOKEEPER)) {
      EmbeddedServer provider = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(),
          List.of("--registry", zookeeper.registry().toString()));
      provider.kill(); // SIGKILL: its entry stays in ZooKeeper until its session expires
      long start = System.nanoTime();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> EchoRun.probe(DubboFramework.FRAMEWORK,
          PARAMS, new Endpoints(List.of(provider.address()), zookeeper.registry()), "test"));
      provider.close();
      assertOneLineWithin(e, "no dubbo echo call through zookeeper://127.0.0.1:", start);
      assertTrue(e.getMessage().contains("contract.dubbo.MobileService is registered in zookeeper://"
          + zookeeper.registry().address() + " (/dubbo/contract.dubbo.MobileService/providers) at "
          + provider.address() + ", and nothing answered there"), e.getMessage());
      assertTrue(zookeeper.process().isAlive());
      zookeeper.close();
      assertFalse(zookeeper.process().isAlive(), "ZooKeeper stopped with its run");
    }
  }

  @Test
  void aRequestForAVersionNoProviderRegisteredListsTheRegisteredOnes() throws Exception {
    try (RegistryServer zookeeper = RegistryServer.start(Registry.Kind.ZOOKEEPER);
         EmbeddedServer provider = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(),
             List.of("--registry", zookeeper.registry().toString()));
         DubboClient client = DubboDsl.dubbo.registry(zookeeper.registry()).newClient()) {
      String service = MobileService.class.getName();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> dubbo("hello")
          .service(MobileService.class).version("2.0.0").call((MobileService s, Order o) -> s.hello(o)).calls()
          .prepare(client));
      assertEquals("no provider of " + service + " matches this request (dubbo, version 2.0.0, no group) in "
          + zookeeper.registry() + " (/dubbo/" + service + "/providers); registered: dubbo://" + provider.address()
          + ": set the request's .version(...) and .group(...) to one of them", e.getMessage());
      // The request as the provider registered it is served.
      var hello = dubbo("hello").service(MobileService.class).call((MobileService s, Order o) -> s.hello(o)).calls()
          .prepare(client);
      Order order = new Order(7, "p", "n", "o", 1, 1, 1.0, 1);
      assertEquals(7L, hello.callSync(client, order, 5_000).getOrderId());
    }
  }

  @Test
  void aGenericCallsMistakesAreNamedInOneLineEachAndTheRegistryListsTheMethods() throws Exception {
    String service = MobileService.class.getName();
    try (RegistryServer zookeeper = RegistryServer.start(Registry.Kind.ZOOKEEPER);
         EmbeddedServer provider = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(),
             List.of("--registry", zookeeper.registry().toString()));
         DubboClient direct = DubboDsl.dubbo.target(provider.address().toString()).newClient();
         DubboClient viaRegistry = DubboDsl.dubbo.registry(zookeeper.registry()).newClient()) {
      String order = "[{\"orderId\": 7}]";
      assertEquals("RpcException: " + service + " has no method helo(contract.pojo.Order): check the method's name and"
          + " its parameter types", koOf(direct, "helo", order, "contract.pojo.Order"));
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> dubbo("helo").generic(service)
          .method("helo", "contract.pojo.Order").calls().prepare(viaRegistry));
      assertEquals(service + " has no method helo: its providers registered hello, helloAsync, listOrders,"
          + " listOrdersAsync", e.getMessage());
      assertEquals("RpcException: " + service + " has no method hello(java.lang.String): it has hello with other"
          + " parameter types", koOf(viaRegistry, "hello", "[\"x\"]", "java.lang.String"));
      assertEquals("RpcException: the provider of " + service + " has no class contract.pojo.Ordr (a parameter type"
          + " of hello(contract.pojo.Ordr))", koOf(direct, "hello", order, "contract.pojo.Ordr"));
      assertEquals("RpcException: the arguments do not fit listOrders(int): the provider says"
          + " java.lang.NumberFormatException: For input string: \"ten\"", koOf(direct, "listOrders", "[\"ten\"]", "int"));
      // A call made on the caller's thread gets the same line.
      var sync = dubbo("helo").generic(service).method("helo", "contract.pojo.Order").calls().prepare(direct);
      RuntimeException thrown = assertThrows(RuntimeException.class, () -> sync.callSync(direct, order, 5_000));
      assertEquals("dubbo method not found", direct.errorCode(thrown));
      assertTrue(thrown.getMessage().startsWith(service + " has no method helo("), thrown.getMessage());
    }
  }

  /** The KO line of one generic call, as the report shows it. */
  private static String koOf(DubboClient client, String method, String arguments, String... types) throws Exception {
    var call = dubbo(method).generic(MobileService.class.getName()).method(method, types).calls().prepare(client);
    java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> call.callAsync(client, arguments).toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS));
    return protocols.rpc.Errors.oneLine(protocols.rpc.Errors.unwrap(e));
  }

  @Test
  void aDiscoveredProviderThatStopsAnsweringIsNamedInTheKoWithWhereItCameFrom() throws Exception {
    String service = MobileService.class.getName();
    try (RegistryServer zookeeper = RegistryServer.start(Registry.Kind.ZOOKEEPER);
         EmbeddedServer provider = EmbeddedServer.start("dubbo", DubboEchoServer.class.getName(),
             List.of("--registry", zookeeper.registry().toString()));
         DubboClient client = DubboDsl.dubbo.registry(zookeeper.registry()).timeout(java.time.Duration.ofSeconds(2))
             .newClient()) {
      var hello = dubbo("hello").service(MobileService.class).call((MobileService s, Order o) -> s.hello(o)).calls()
          .prepare(client);
      String found = service + " found in " + zookeeper.registry() + " (/dubbo/" + service + "/providers) at "
          + provider.address();
      assertEquals(List.of(found), client.providersFound());
      Order order = new Order(7, "p", "n", "o", 1, 1, 1.0, 1);
      assertEquals(7L, hello.callSync(client, order, 5_000).getOrderId());
      provider.kill(); // its entry stays in ZooKeeper until its session expires
      RuntimeException e = assertThrows(RuntimeException.class, () -> {
        for (int i = 0; i < 50; i++) { // until Dubbo sees the connection gone, a call may still be on its way
          hello.callSync(client, order, 5_000);
          Thread.sleep(100);
        }
      });
      String line = client.failureLine(e);
      assertTrue(line.endsWith("[" + found + ": if the provider listens elsewhere, Dubbo registered an address nobody"
          + " chose (it takes a 127.x dubbo.protocol.host or DUBBO_IP_TO_REGISTRY for no host, and registers the"
          + " machine's first interface address); set the provider's dubbo.protocol.host to an address this"
          + " injector reaches (127.0.0.1 over Triple: 2130706433, its numeric form, which Dubbo keeps)]"), line);
      assertFalse(line.contains("\n"), line);
    }
  }

  @Test
  void aRegistryPortWhereNothingListensIsNamed() throws Exception {
    Registry nowhere = Registry.zookeeper("127.0.0.1", LoopbackPorts.next());
    long start = System.nanoTime();
    try (DubboClient client = DubboDsl.dubbo.registry(nowhere).newClient()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> dubbo("hello")
          .service(MobileService.class).call((MobileService s, Order o) -> s.hello(o)).calls().prepare(client));
      assertTrue(e.getMessage().startsWith("no provider of contract.dubbo.MobileService could be found through "
          + nowhere + ": its list could not be read (") && e.getMessage().endsWith("is ZooKeeper listening at that"
          + " address and port?"), e.getMessage());
      assertOneLineWithin(e, "no provider of", start);
    }
  }

  @Test
  void anIceGridRegistryNoProviderRegisteredWithIsOneLine() {
    try (RegistryServer icegrid = RegistryServer.start(Registry.Kind.ICEGRID)) {
      long start = System.nanoTime();
      Endpoints endpoints = new Endpoints(List.of(icegrid.registry().address()), icegrid.registry());
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> EchoRun.probe(IceFramework.FRAMEWORK, PARAMS, endpoints, "test"));
      assertOneLineWithin(e, "no ice echo call through icegrid://127.0.0.1:", start);
      assertTrue(e.getMessage().contains("knows no object adapter 'EchoGroup': no provider registered it"),
          e.getMessage());
    }
  }

  private static void assertOneLineWithin(RuntimeException e, String expectedStart, long startNanos) {
    long millis = (System.nanoTime() - startNanos) / 1_000_000;
    assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(millis < 20_000, "answered in " + millis + " ms");
  }
}
