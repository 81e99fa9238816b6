package protocols.thrift.lab;

import static protocols.thrift.ThriftDsl.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import org.apache.thrift.TServiceClient;
import java.util.List;
import protocols.lab.RpcFramework;
import protocols.lab.RpcFramework.Range;
import protocols.lab.RpcFramework.Side;
import protocols.thrift.ThriftClient;
import protocols.thrift.ThriftDsl;
import protocols.thrift.ThriftProtocol;

/** Thrift as the lab knows it: its echo server, its echo and sample order, {@code -Dthrift.protocol} and {@code -Dthrift.client}. */
public final class ThriftFramework {
  /** {@code -Dthrift.protocol=binary|compact} sets both sides; {@code -Dthrift.client=manager|loops} the client's async path. */
  public static final RpcFramework<ThriftClient, Order> FRAMEWORK = RpcFramework.<ThriftClient, Order>of("thrift",
          TServiceClient.class, "servers.thrift.ThriftEchoServer", "--max-frame",
          p -> ThriftDsl.thrift.wireProtocol(p.string("thrift.protocol", WireProtocols.DEFAULT))
              .asyncPath(ThriftProtocol.AsyncPath.of(p.string("thrift.client", ThriftProtocol.AsyncPath.MANAGER.label()))),
          thrift("echo").client(MobileService.AsyncClient.class).call(MobileService.AsyncClient::hello)
              .blocking(MobileService.Client.class, MobileService.Client::hello)
              .halves(MobileService.Client.class, MobileService.Client::send_hello, MobileService.Client::recv_hello)
              .calls(),
          ThriftDsl::order)
      .withParam("thrift.protocol", WireProtocols.DEFAULT, Side.BOTH, "--protocol", WireProtocols.SUPPORTED,
          "Thrift's wire protocol, on both sides")
      .withParam("thrift.client", ThriftProtocol.AsyncPath.MANAGER.label(), Side.CLIENT, null,
          java.util.Arrays.stream(ThriftProtocol.AsyncPath.values()).map(ThriftProtocol.AsyncPath::label).toList(),
          "the async client: Thrift's TAsyncClientManager, or the generated client's halves on Gatling's loops")
      .withParam("thrift.server", "threaded-selector", Side.SERVER, "--server",
          List.of("threaded-selector", "hsha", "nonblocking", "threadpool"),
          "Thrift's server: threaded selectors, half-sync/half-async, one non-blocking thread, or a thread per"
              + " connection")
      .withParam("thrift.selectors", 2, Side.SERVER, "--selectors", new Range(1, 64), List.of(1, 2, 4),
          "the threaded-selector server's selector (I/O) threads")
      .withParam("thrift.serverThreads", 200, Side.SERVER, "--threads", new Range(1, 10_000), List.of(8, 200),
          "the server's worker threads (with threadpool: the most connections it serves)");

  private ThriftFramework() {}
}
