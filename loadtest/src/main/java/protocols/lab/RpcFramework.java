package protocols.lab;

import io.gatling.javaapi.core.ActionBuilder;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.rpc.RpcRequest;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcClient;
import protocols.rpc.RpcChecks;
import protocols.rpc.RpcCallActionBuilder;
import protocols.rpc.InvocationMode;
import protocols.rpc.HostPort;

/**
 * One framework, as the echo runs, the shootout and the plain driver know it: its name, its client
 * library's version, its protocol as its own -D parameters configure it, its echo method and sample
 * order, and its echo server. Each framework's DSL declares one ({@code FRAMEWORK}); {@code Frameworks}
 * lists them. Immutable.
 *
 * @param <C> the framework's client
 * @param <Req> the framework's Order type
 */
public final class RpcFramework<C extends RpcClient, Req> {
  private final String name;
  private final String version;
  private final String serverMainClass;
  private final String maxMessageFlag;
  private final Function<LoadParams, ? extends RpcProtocol<?, C>> protocol;
  private final RpcMethod<C, Req, Req> echo;
  private final OrderMaker<Req> order;
  private final List<Param> params;

  private RpcFramework(String name, String version, String serverMainClass, String maxMessageFlag,
                       Function<LoadParams, ? extends RpcProtocol<?, C>> protocol, RpcMethod<C, Req, Req> echo,
                       OrderMaker<Req> order, List<Param> params) {
    this.name = Objects.requireNonNull(name);
    this.version = Objects.requireNonNull(version);
    this.serverMainClass = Objects.requireNonNull(serverMainClass);
    this.maxMessageFlag = Objects.requireNonNull(maxMessageFlag);
    this.protocol = Objects.requireNonNull(protocol);
    this.echo = Objects.requireNonNull(echo);
    this.order = Objects.requireNonNull(order);
    this.params = List.copyOf(params);
  }

  /**
   * @param name short name: request names, -Dframeworks, -Dtarget.NAME
   * @param library a class of the framework's client library, whose jar gives the version
   * @param serverMainClass the echo server, started in its own JVM when there is no target
   * @param maxMessageFlag the server's flag for its size limit, set from -DmaxMessageBytes
   * @param protocol the protocol with the framework's own -D parameters ({@link #withParam}) applied
   * @param echo the echo method, {@code MobileService.hello}
   * @param order the write-ups' sample order with the given id and name
   */
  public static <C extends RpcClient, Req> RpcFramework<C, Req> of(
      String name, Class<?> library, String serverMainClass, String maxMessageFlag,
      Function<LoadParams, ? extends RpcProtocol<?, C>> protocol, RpcMethod<C, Req, Req> echo, OrderMaker<Req> order) {
    return new RpcFramework<>(name, versionOf(library), serverMainClass, maxMessageFlag, protocol, echo, order,
        List.of());
  }

  /**
   * A -D parameter of the framework's own, one of {@code allowed}: checked before a run starts, passed
   * to its embedded server as {@code serverFlag} (null: the client's alone) and to the shootout's
   * plain-driver JVMs; RpcTuning tries each of {@code allowed}.
   *
   * @param does what it sets, in one line (docs, the tuning report)
   */
  public RpcFramework<C, Req> withParam(String property, String defaultValue, Side side, String serverFlag,
                                        List<String> allowed, String does) {
    return with(new Param(property, defaultValue, side, serverFlag, List.copyOf(allowed), null, does));
  }

  /**
   * A whole-number -D parameter of the framework's own within {@code range}; RpcTuning tries each of
   * {@code tried}.
   */
  public RpcFramework<C, Req> withParam(String property, int defaultValue, Side side, String serverFlag, Range range,
                                        List<Integer> tried, String does) {
    return with(new Param(property, Integer.toString(defaultValue), side, serverFlag,
        tried.stream().map(String::valueOf).toList(), range, does));
  }

  /**
   * The lab's {@code -Dconnections} as one of the framework's knobs, the client's: 0 is the framework's
   * own layout ({@code zero}), N that many connections; RpcTuning tries each of {@code tried}.
   */
  public RpcFramework<C, Req> withConnections(List<Integer> tried, String zero) {
    return withParam("connections", 0, Side.CLIENT, null, new Range(0, 1_024), tried,
        "the client's connections (-Dconnections): 0 " + zero + ", N that many");
  }

  private RpcFramework<C, Req> with(Param param) {
    List<Param> all = new ArrayList<>(params);
    all.add(param);
    return new RpcFramework<>(name, version, serverMainClass, maxMessageFlag, protocol, echo, order, all);
  }

  /** Which side a parameter sets: the client's, the server's (through its flag) or both. */
  public enum Side {
    CLIENT, SERVER, BOTH;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The whole numbers a parameter takes. */
  public record Range(int min, int max) {
  }

  /**
   * A framework's own -D parameter: a knob of its client ({@code serverFlag} null) or of its server.
   *
   * @param values the values it takes (range null) or, with a range, the ones RpcTuning tries
   * @param range null: one of {@code values}
   * @param does what it sets, in one line
   */
  public record Param(String property, String defaultValue, Side side, String serverFlag, List<String> values,
                      Range range, String does) {
    public Param {
      if ((side == Side.CLIENT) != (serverFlag == null)) {
        throw new IllegalArgumentException(property + ": a server flag goes with the server's side, and only there");
      }
    }

    /** Its value in {@code params}, checked. */
    public String value(LoadParams params) {
      return range == null ? params.choice(property, defaultValue, values)
          : Integer.toString(params.intParam(property, Integer.parseInt(defaultValue), range.min(), range.max()));
    }

    /** The values RpcTuning tries: the default first, then the others in their order. */
    public List<String> tried() {
      List<String> out = new ArrayList<>(List.of(defaultValue));
      values.stream().filter(v -> !v.equals(defaultValue)).forEach(out::add);
      return out;
    }
  }

  public String name() {
    return name;
  }

  /** The client library's version, from its jar. */
  public String version() {
    return version;
  }

  public String serverMainClass() {
    return serverMainClass;
  }

  public List<Param> params() {
    return params;
  }

  /** The embedded server's flags: the framework's own, -DmaxMessageBytes's and -DserverDelayUs's. */
  public List<String> serverArgs(LoadParams params) {
    List<String> args = new ArrayList<>();
    for (Param p : this.params) {
      if (p.serverFlag() != null) {
        args.addAll(List.of(p.serverFlag(), p.value(params)));
      }
    }
    params.maxMessageBytes().ifPresent(bytes -> args.addAll(List.of(maxMessageFlag, Integer.toString(bytes))));
    params.serverDelayUs().ifPresent(us -> args.addAll(List.of("--delay-us", Integer.toString(us))));
    return List.copyOf(args);
  }

  /** The protocol with the framework's own -D parameters applied; a bad value ends here, with one line. */
  public RpcProtocol<?, C> protocol(LoadParams params) {
    this.params.forEach(p -> p.value(params));
    return protocol.apply(params);
  }

  /** The protocol with every shared -D parameter, the target and {@code mode} applied. */
  public RpcProtocol<?, C> configured(LoadParams params, HostPort target, InvocationMode mode) {
    return configured(params, Endpoints.direct(target), mode);
  }

  /** The same calling {@code endpoints}: several providers, or a registry. */
  public RpcProtocol<?, C> configured(LoadParams params, Endpoints endpoints, InvocationMode mode) {
    return endpoints.applyTo(protocol(params)).timeout(params.timeout()).mode(mode)
        .syncThreads(params.syncThreads()).connections(params.connections()).koPause(params.koPause())
        .maxMessageBytes(params.maxMessageBytes().orElse(0));
  }

  /** A client as {@link #configured} but with {@code timeout}, outside Gatling (the probe, the plain driver). */
  public C newClient(LoadParams params, HostPort target, InvocationMode mode, Duration timeout) {
    return newClient(params, target, mode, timeout, null);
  }

  /** The same on {@code loops} where the client can do its I/O on them (as on Gatling's), else null. */
  public C newClient(LoadParams params, HostPort target, InvocationMode mode, Duration timeout,
                     EventLoopGroup loops) {
    return newClient(params, Endpoints.direct(target), mode, timeout, loops);
  }

  /** The same calling {@code endpoints}. */
  public C newClient(LoadParams params, Endpoints endpoints, InvocationMode mode, Duration timeout,
                     EventLoopGroup loops) {
    return configured(params, endpoints, mode).timeout(timeout).newClient(loops);
  }

  /** The echo method ready for {@code client}'s calls outside Gatling (the probe, the plain driver). */
  public RpcMethod<C, Req, Req> echo(C client) {
    return echo.prepare(client);
  }

  /** The write-ups' sample order with the given id, its name as -DorderNameChars sets it. */
  public Req order(long orderId, LoadParams params) {
    return order.make(orderId, params.orderName());
  }

  /** The echo call every level makes: a fresh order id per call, so no reply can be cached. */
  public RpcCallActionBuilder<C, Req, Req> echoCall(String requestName, LoadParams params) {
    String orderName = params.orderName();
    return RpcRequest.of(protocol(params).key(), requestName, echo)
        .send(session -> order.make(ThreadLocalRandom.current().nextLong(), orderName))
        .check(RpcChecks.echo());
  }

  private static final Pattern JAR_VERSION = Pattern.compile("-(\\d[\\w.\\-]*)\\.jar$");

  /** The version in the name of the jar that holds {@code library} (Maven's artifact-version.jar). */
  static String versionOf(Class<?> library) {
    String v = library.getPackage() == null ? null : library.getPackage().getImplementationVersion();
    if (v != null) {
      return v;
    }
    try {
      Path jar = Path.of(library.getProtectionDomain().getCodeSource().getLocation().toURI());
      Matcher m = JAR_VERSION.matcher(jar.getFileName().toString());
      return m.find() ? m.group(1) : "unknown";
    } catch (Exception | LinkageError e) {
      return "unknown";
    }
  }

  /** A framework's sample order: {@code DubboDsl::order}. */
  @FunctionalInterface
  public interface OrderMaker<Req> {
    Req make(long orderId, String name);
  }
}
