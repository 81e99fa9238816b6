package protocols;

import java.util.ArrayList;
import java.util.List;
import protocols.core.EchoFramework;
import protocols.dubbo.DubboDsl;
import protocols.grpc.GrpcDsl;
import protocols.ice.IceDsl;
import protocols.netty.NettyDsl;
import protocols.thrift.ThriftDsl;

/** Every framework this project measures, in the shootout's order; the ceiling (netty) last. */
public final class Frameworks {
  public static final List<EchoFramework<?>> ALL =
      List.of(DubboDsl.ECHO, ThriftDsl.ECHO, GrpcDsl.ECHO, IceDsl.ECHO, NettyDsl.ECHO);

  /** The name of the ceiling every framework is compared with. */
  public static final String CEILING = "netty";

  private Frameworks() {}

  public static List<String> names() {
    return ALL.stream().map(EchoFramework::name).toList();
  }

  public static EchoFramework<?> byName(String name) {
    return ALL.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
        new IllegalArgumentException("unknown framework '" + name + "'; known: " + String.join(",", names())));
  }

  /** {@code -Dframeworks=dubbo,grpc}: the named ones, in the order given. */
  public static List<EchoFramework<?>> parse(String list) {
    List<EchoFramework<?>> out = new ArrayList<>();
    for (String name : list.split(",", -1)) {
      EchoFramework<?> f;
      try {
        f = byName(name.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("-Dframeworks: " + e.getMessage());
      }
      if (out.contains(f)) {
        throw new IllegalArgumentException("-Dframeworks lists " + f.name() + " twice");
      }
      out.add(f);
    }
    return out;
  }
}
