package protocols.grpc.lab;

import static protocols.grpc.GrpcDsl.grpc;

import contract.grpc.MobileServiceGrpc;
import contract.grpc.Order;
import io.grpc.ManagedChannel;
import protocols.grpc.GrpcClient;
import protocols.grpc.GrpcDsl;
import protocols.grpc.GrpcProtocol;
import java.util.List;
import protocols.lab.RpcFramework;
import protocols.lab.RpcFramework.Range;
import protocols.lab.RpcFramework.Side;

/** gRPC as the lab knows it: its echo server, its echo and sample order, its knobs (executor, window, compression, transport). */
public final class GrpcFramework {
  /** {@code -Dconnections=N} spreads the users over N channels (default one per event loop). */
  public static final RpcFramework<GrpcClient, Order> FRAMEWORK = RpcFramework.of("grpc", ManagedChannel.class,
      "servers.grpc.GrpcEchoServer", "--max-message",
      p -> retry(GrpcDsl.grpc.flowControlWindow(p.intParam("grpc.flowWindow", GrpcProtocol.DEFAULT_FLOW_WINDOW, 65_535,
          1 << 30)).compression(p.string("grpc.compression", "none")), p.string("grpc.retry", "on")),
      grpc("echo").unary(MobileServiceGrpc.getHelloMethod()).calls(), GrpcDsl::order)
      .withParam("grpc.serverThreads", 200, Side.SERVER, "--threads", new Range(0, 10_000), List.of(0, 8, 200),
          "the server's service executor: 0 runs the service on the transport's event loop (gRPC's direct executor),"
              + " N a fixed pool of N threads")
      .withParam("grpc.flowWindow", GrpcProtocol.DEFAULT_FLOW_WINDOW, Side.BOTH, "--flow-window",
          new Range(65_535, 1 << 30), List.of(65_535, 1024 * 1024, 8 * 1024 * 1024),
          "the initial HTTP/2 flow-control window of the server and of the client's channels, bytes")
      .withParam("grpc.compression", "none", Side.BOTH, "--compression", GrpcProtocol.COMPRESSIONS,
          "every message's compression: the client's requests (CallOptions) and the server's replies")
      .withParam("grpc.retry", "on", Side.CLIENT, null, List.of("on", "off"),
          "grpc-java's retry layer on the client's channels: on as shipped, off its disableRetry() (no"
              + " RetriableStream per call, no transparent retry)")
      .withParam("grpc.transport", "auto", Side.SERVER, "--transport", List.of("auto", "epoll", "nio"),
          "the server's Netty transport: Linux's epoll or the JDK's NIO (auto: grpc-netty's choice, epoll where it"
              + " loads); the client's is Gatling's (gatling.netty.useNativeTransport)")
      .withConnections(List.of(0, 1, 4), "one channel per Gatling event loop");

  private static GrpcProtocol retry(GrpcProtocol protocol, String retry) {
    return retry.equals("off") ? protocol.disableRetry() : protocol;
  }

  private GrpcFramework() {}
}
