package protocols.dubbo;

import protocols.lab.LoopbackPorts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.SampleOrder;
import contract.grpc.GrpcOrder;
import contract.grpc.MobileService;
import contract.grpc.Order;
import contract.grpc.WatchRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.dubbo.lab.TripleFramework;
import protocols.lab.EmbeddedServer;
import protocols.rpc.CallTimer;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcSettings;
import protocols.rpc.StreamResult;
import servers.common.EchoServerMain;
import servers.common.ServerFlags;
import servers.dubbo.TripleEchoServer;

/** The plugin's three stream kinds over Dubbo's Triple client, against the Triple echo server, and how they fail. */
class TripleStreamTest {
  private static final Order ORDER = SampleOrder.make(GrpcOrder::of, 7, SampleOrder.NAME);
  private static EchoServerMain.RunningServer server;
  private static int port;
  private static DubboClient client;

  @BeforeAll
  static void start() throws Exception {
    port = LoopbackPorts.next();
    server = startServer(port);
    client = DubboClient.triple(RpcSettings.defaults(port).withTimeout(Duration.ofSeconds(20)),
        TripleProtocol.DEFAULT_MAX_BODY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop();
    }
  }

  private static EchoServerMain.RunningServer startServer(int on) throws Exception {
    Map<String, String> defaults = TripleEchoServer.defaults(on);
    defaults.put("threads", "20");
    return TripleEchoServer.start(ServerFlags.parse(new String[0], defaults), "127.0.0.1", on, java.util.Optional.empty());
  }

  private static DubboService<MobileService> service() {
    return DubboDsl.triple("s").service(MobileService.class);
  }

  private static <Q> CompletableFuture<StreamResult> open(DubboClient on, RpcMethod<DubboClient, Q, StreamResult> method,
                                                          Q request) {
    return method.prepare(on).callAsync(on, request).toCompletableFuture();
  }

  @Test
  void aServerStreamReadsEveryMessage() throws Exception {
    StreamResult r = open(client, service().serverStream(MobileService::watch).calls(),
        WatchRequest.newBuilder().setCount(5_000).build()).get(20, TimeUnit.SECONDS);
    assertEquals(1, r.sent());
    assertEquals(5_000, r.received());
    assertTrue(r.firstMessageMicros() >= 0);
    assertEquals(4_999, r.gapsMicros().getTotalCount());
  }

  @Test
  void aStreamsExpectedRepliesAndEachReplysChecksHoldOnTripleToo() throws Exception {
    WatchRequest fifty = WatchRequest.newBuilder().setCount(50).build();
    assertEquals(50, open(client, service().serverStream(MobileService::watch).replies(50).calls(), fifty)
        .get(20, TimeUnit.SECONDS).received());
    ExecutionException tooMany = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        () -> open(client, service().serverStream(MobileService::watch).replies(40).calls(), fifty)
            .get(20, TimeUnit.SECONDS));
    assertEquals("StreamBroken: s: reply 41 came, expected exactly 40",
        protocols.rpc.Errors.oneLine(protocols.rpc.Errors.unwrap(tooMany)));
    // Without one reply per message there is no window: all 300 go at once, the replies are counted and checked.
    RpcMethod<DubboClient, Order, StreamResult> chat = service().bidiStream(MobileService::chat).messages(300)
        .atLeastReplies(300).checkEachReply(protocols.rpc.RpcChecks.response(Order::getOrderId).is(7L)).calls()
        .bind(io.gatling.core.session.Session$.MODULE$.apply("scn", 1L, null));
    StreamResult r = open(client, chat, ORDER).get(20, TimeUnit.SECONDS);
    assertEquals(300, r.received());
    assertEquals(0, r.roundTripsMicros().getTotalCount());
  }

  @Test
  void aClientStreamSendsThemAllAndGetsOneReply() throws Exception {
    StreamResult r = open(client, service().clientStream(MobileService::upload).messages(5_000).calls(), ORDER)
        .get(20, TimeUnit.SECONDS);
    assertEquals(5_000, r.sent());
    assertEquals(1, r.received());
  }

  @Test
  void aChatTimesEachEcho() throws Exception {
    StreamResult r = open(client, service().bidiStream(MobileService::chat).messages(5_000).echoed().calls(), ORDER)
        .get(20, TimeUnit.SECONDS);
    assertEquals(5_000, r.sent());
    assertEquals(5_000, r.received());
    assertEquals(5_000, r.roundTripsMicros().getTotalCount());
  }

  @Test
  void aPacedChatSendsOnScheduleAndCountsEachSendsLag() throws Exception {
    io.netty.channel.EventLoopGroup loops = protocols.rpc.GatlingLoops.newGroup();
    try {
      io.netty.channel.EventLoop loop = protocols.rpc.GatlingLoops.of(loops)[0];
      RpcMethod<DubboClient, Order, StreamResult> paced = service().bidiStream(MobileService::chat).messages(200)
          .echoed().perSecond(1_000).calls().prepare(client)
          .bind(io.gatling.core.session.Session$.MODULE$.apply("scn", 1L, loop));
      long start = System.nanoTime();
      StreamResult r = paced.callAsync(client, ORDER).toCompletableFuture().get(20, TimeUnit.SECONDS);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(200, r.received());
      assertEquals(200, r.roundTripsMicros().getTotalCount());
      assertEquals(200, r.sendLagsMicros().getTotalCount(), "each send's lag behind its due time");
      assertTrue(tookMillis >= 199, "200 messages at 1,000/s take 199 ms at least, took " + tookMillis);
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /**
   * A server of its own, in its own JVM, for a test that floods it: Dubbo's Triple server queues a
   * watch's every order at once and goes on after a cancel, and the connection then serves no call for
   * seconds ("upstream ... is unavailable"): the other tests keep theirs.
   */
  private static EmbeddedServer ownServer() {
    return EmbeddedServer.start("triple", TripleFramework.FRAMEWORK.serverMainClass(), List.of());
  }

  private static DubboClient clientOf(EmbeddedServer s) {
    return DubboClient.triple(RpcSettings.defaults(s.address().port()).withTimeout(Duration.ofSeconds(20)),
        TripleProtocol.DEFAULT_MAX_BODY);
  }

  @Test
  void aStreamThatNeverEndsIsCancelledByTheRunsTimeout() throws Exception {
    RpcMethod<DubboClient, WatchRequest, StreamResult> watch = service().serverStream(MobileService::watch).calls();
    try (EmbeddedServer own = ownServer(); DubboClient to = clientOf(own);
         CallTimer timer = new CallTimer("triple-stream-test")) {
      long t0 = System.nanoTime();
      CompletableFuture<StreamResult> call = timer.within(watch,
          open(to, watch, WatchRequest.newBuilder().setCount(500_000).build()), 300);
      ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> call.get(20, TimeUnit.SECONDS));
      assertInstanceOf(TimeoutException.class, e.getCause());
      assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000, "ended at the timeout");
    }
  }

  @Test
  void aStreamEndsAtItsOwnDeadlineAsATimeout() throws Exception {
    try (EmbeddedServer own = ownServer(); DubboClient to = clientOf(own)) {
      CompletableFuture<StreamResult> call = open(to, service().serverStream(MobileService::watch)
          .deadline(Duration.ofMillis(300)).calls(), WatchRequest.newBuilder().setCount(500_000).build());
      ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> call.get(20, TimeUnit.SECONDS));
      assertEquals("triple DEADLINE_EXCEEDED", to.errorCode(e.getCause()));
      assertTrue(to.isTimeout(e.getCause()), "reported as a timeout: " + e.getCause());
    }
  }

  @Test
  void aServerKilledMidStreamFailsTheStreamAtOnce() throws Exception {
    // Its own JVM: Dubbo holds one Triple service per path in a process, and a kill is a kill.
    try (EmbeddedServer doomed = ownServer(); DubboClient to = clientOf(doomed)) {
      CompletableFuture<StreamResult> call = open(to, service().serverStream(MobileService::watch).calls(),
          WatchRequest.newBuilder().setCount(SampleOrder.MAX_WATCH).build());
      Thread.sleep(500); // the stream is flowing
      assertTrue(!call.isDone(), "a stream of 10,000,000 orders is still going: " + call);
      long killed = System.nanoTime();
      doomed.kill();
      ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> call.get(20, TimeUnit.SECONDS));
      long afterMillis = (System.nanoTime() - killed) / 1_000_000;
      assertTrue(afterMillis < 5_000, "the stream failed " + afterMillis + " ms after the kill: " + e.getCause());
      assertTrue(to.errorCode(e.getCause()).startsWith("triple "), to.errorCode(e.getCause()));
    }
  }
}
