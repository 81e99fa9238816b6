package protocols.frameworks;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import protocols.dubbo.lab.DubboFramework;
import protocols.dubbo.lab.TripleFramework;
import protocols.thrift.lab.ThriftFramework;
import protocols.grpc.lab.GrpcFramework;
import protocols.ice.lab.IceFramework;
import protocols.netty.lab.NettyFramework;
import protocols.lab.RpcFramework;
import protocols.lab.Parameters;

/** Every framework this project measures, in the shootout's order; the ceiling (netty) last. */
public final class Frameworks {
  /** The one list of frameworks: a new framework is its own package and one line here. */
  public static final List<RpcFramework<?, ?>> ALL = List.of(
      DubboFramework.FRAMEWORK,
      TripleFramework.FRAMEWORK,
      ThriftFramework.FRAMEWORK,
      GrpcFramework.FRAMEWORK,
      IceFramework.FRAMEWORK,
      NettyFramework.FRAMEWORK);

  /** The name of the ceiling every framework is compared with. */
  public static final String CEILING = "netty";

  private Frameworks() {}

  public static List<String> names() {
    return ALL.stream().map(RpcFramework::name).toList();
  }

  public static RpcFramework<?, ?> byName(String name) {
    return ALL.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
        new IllegalArgumentException("unknown framework '" + name + "'; known: " + String.join(",", names())));
  }

  /**
   * What a run of {@code simulation} takes: {@code uses}, and the own parameters of {@code running}
   * among every framework's ({@code -Dtarget.<framework>} where it runs several).
   */
  public static Parameters.Run run(String simulation, Set<Parameters.Use> uses, List<RpcFramework<?, ?>> running,
                                   boolean targetPerFramework) {
    return new Parameters.Run(simulation, uses, ownParams(running), ownParams(ALL), Set.copyOf(names()),
        targetPerFramework);
  }

  private static Set<String> ownParams(List<RpcFramework<?, ?>> frameworks) {
    Set<String> out = new java.util.TreeSet<>();
    frameworks.forEach(f -> f.params().forEach(p -> out.add(p.property())));
    return out;
  }

  /** {@code -Dframeworks=dubbo,grpc}: the named ones, in the order given. */
  public static List<RpcFramework<?, ?>> parse(String list) {
    List<RpcFramework<?, ?>> out = new ArrayList<>();
    for (String name : list.split(",", -1)) {
      RpcFramework<?, ?> f;
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
