package protocols.grpc;

import protocols.rpc.ClientPath;
import java.util.Map;
import protocols.rpc.NettyTls;
import protocols.rpc.RpcProtocol;
import protocols.rpc.RpcProtocolKey;
import protocols.rpc.RpcSettings;

/**
 * {@code grpc.target("127.0.0.1", 50051).connections(4)...}: immutable. {@code connections} is the
 * number of channels (HTTP/2 connections) the users share; the default is one per Gatling event loop
 * (one outside Gatling).
 */
public final class GrpcProtocol extends RpcProtocol<GrpcProtocol, GrpcClient> {
  public static final RpcProtocolKey<GrpcProtocol> KEY = new RpcProtocolKey<>(GrpcProtocol.class);

  /** The echo server's --max-message default; gRPC's own is 4 MiB. */
  static final int DEFAULT_MAX_MESSAGE = 1024 * 1024;
  /** grpc-netty's own initial flow-control window, bytes. */
  public static final int DEFAULT_FLOW_WINDOW = 1024 * 1024;
  /** The call compressions grpc-java registers by default: none (identity) and gzip. */
  public static final java.util.List<String> COMPRESSIONS = java.util.List.of("none", "gzip");

  /** What the channels and calls are built with beyond the shared settings. */
  record ChannelOptions(int flowWindow, String compression, boolean retry) {
    static final ChannelOptions DEFAULTS = new ChannelOptions(DEFAULT_FLOW_WINDOW, "none", true);
  }

  private final ChannelOptions options;

  GrpcProtocol(RpcSettings settings) {
    this(settings, ChannelOptions.DEFAULTS);
  }

  private GrpcProtocol(RpcSettings settings, ChannelOptions options) {
    super(settings, new Spec<>(KEY, "grpc", DEFAULT_MAX_MESSAGE, s -> new GrpcProtocol(s, options),
        (p, loops) -> new GrpcClient(p.settings(), p.maxMessageBytes(), options, loops)));
    this.options = options;
  }

  /** The channels' initial HTTP/2 flow-control window: how much the server may send on a call before the client's WINDOW_UPDATE. */
  public GrpcProtocol flowControlWindow(int bytes) {
    if (bytes < 65_535) {
      throw new IllegalArgumentException("a gRPC flow-control window is at least HTTP/2's 65535 bytes, got " + bytes);
    }
    return new GrpcProtocol(settings(), new ChannelOptions(bytes, options.compression(), options.retry()));
  }

  /** Every request's compression: {@code none} (the default) or {@code gzip}. */
  public GrpcProtocol compression(String name) {
    if (!COMPRESSIONS.contains(name)) {
      throw new IllegalArgumentException("gRPC compression must be one of " + String.join("|", COMPRESSIONS) + ", got '"
          + name + "'");
    }
    return new GrpcProtocol(settings(), new ChannelOptions(options.flowWindow(), name, options.retry()));
  }

  /**
   * Channels without grpc-java's retry layer (its {@code disableRetry()}): each call goes to the
   * transport directly instead of through a {@code RetriableStream} that buffers it for a replay, and
   * a call that fails before it reaches the server is not retried transparently. On by default, as
   * grpc-java ships.
   */
  public GrpcProtocol disableRetry() {
    return new GrpcProtocol(settings(), new ChannelOptions(options.flowWindow(), options.compression(), false));
  }

  @Override
  public String callbackApi() {
    return "grpc-java's async stub: ClientCalls.asyncUnaryCall with a StreamObserver (async mode uses the"
        + " ClientCall.Listener beneath both stubs, completing a future; sync mode the blocking stub)";
  }

  @Override
  public String tlsImplementation() {
    return settings().viaTls().map(t -> NettyTls.describe(NettyTls.provider(t.provider()))).orElse("none");
  }

  @Override
  public String balancing() {
    return settings().targets().size() > 1
        ? "gRPC's own: a resolver naming the providers, the round_robin policy over a subchannel per provider"
        : "one server";
  }

  @Override
  public ClientPath clientPath() {
    return new ClientPath("one per event loop", "one channel (HTTP/2 connection) per Gatling event loop, on that loop", 0,
        "the call and its reply on the user's own loop, its channel's");
  }

  @Override
  public Map<String, Object> describe() {
    return Map.of("channels", settings().connections() == 0 ? "one per event loop" : settings().connections(),
        "flowControlWindow", options.flowWindow(), "compression", options.compression(),
        "retry", options.retry() ? "on (grpc-java's default)" : "off");
  }
}
