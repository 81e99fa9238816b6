package protocols.thrift.lab;

import static protocols.thrift.ThriftDsl.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import org.apache.thrift.TServiceClient;
import protocols.lab.RpcFramework;
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
      .withParam("thrift.protocol", WireProtocols.DEFAULT, "--protocol", WireProtocols.SUPPORTED)
      .withParam("thrift.client", ThriftProtocol.AsyncPath.MANAGER.label(), null,
          java.util.Arrays.stream(ThriftProtocol.AsyncPath.values()).map(ThriftProtocol.AsyncPath::label).toList());

  private ThriftFramework() {}
}
