package protocols.thrift.lab;

import static protocols.thrift.ThriftDsl.thrift;

import contract.thrift.MobileService;
import contract.thrift.Order;
import contract.thrift.WireProtocols;
import org.apache.thrift.TServiceClient;
import protocols.lab.RpcFramework;
import protocols.thrift.ThriftClient;
import protocols.thrift.ThriftDsl;

/** Thrift as the lab knows it: its echo server, its echo and sample order, {@code -Dthrift.protocol}. */
public final class ThriftFramework {
  /** {@code -Dthrift.protocol=binary|compact} sets both sides. */
  public static final RpcFramework<ThriftClient, Order> FRAMEWORK = RpcFramework.<ThriftClient, Order>of("thrift",
          TServiceClient.class, "servers.thrift.ThriftEchoServer", "--max-frame",
          p -> ThriftDsl.thrift.wireProtocol(p.string("thrift.protocol", WireProtocols.DEFAULT)),
          thrift("echo").client(MobileService.AsyncClient.class).call(MobileService.AsyncClient::hello)
              .blocking(MobileService.Client.class, MobileService.Client::hello).calls(),
          ThriftDsl::order)
      .withParam("thrift.protocol", WireProtocols.DEFAULT, "--protocol", WireProtocols.SUPPORTED);

  private ThriftFramework() {}
}
