package protocols.dubbo;

import contract.dubbo.DubboSerialization;
import contract.dubbo.ExactAddressTransporter;
import contract.dubbo.MobileService;
import contract.pojo.Order;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.remoting.TimeoutException;
import org.apache.dubbo.rpc.RpcException;
import protocols.core.RpcClient;
import protocols.core.RpcSettings;
import protocols.core.SizeLimit;

/** A Dubbo consumer of the echo: one reference, connected straight to the server (no registry). */
final class DubboClient implements RpcClient<Order, Order> {
  static {
    // Before Dubbo's first logger exists: route its logs to Gatling's logback (logback-test.xml),
    // instead of java.util.logging on the console.
    if (System.getProperty("dubbo.application.logger") == null) {
      System.setProperty("dubbo.application.logger", "slf4j");
    }
  }

  static final int RECONNECT_MILLIS = 1_000;
  private static final Pattern TOO_LARGE = Pattern.compile("Data length too large: (\\d+), max payload: (\\d+)");
  private final DubboBootstrap bootstrap;
  private final MobileService service;

  DubboClient(RpcSettings settings, String serialization, int maxPayload) {
    DubboSerialization.secureKryo();
    ApplicationConfig application = new ApplicationConfig("gatling-dubbo-consumer");
    application.setQosEnable(false);
    application.setSerializeCheckStatus("STRICT");
    // When a connection drops, Dubbo waits this long (default 10 s, so past any call timeout) before
    // failing the calls still in flight on it; 0 fails them at once, as the other clients do.
    application.setShutwait("0");

    ReferenceConfig<MobileService> reference = new ReferenceConfig<>();
    reference.setInterface(MobileService.class);
    // The consumer's serialization travels in the URL; prefer.serialization stops Dubbo 3 from
    // negotiating its own default (fastjson2) instead. client=exact keeps 127.0.0.1 as given.
    reference.setUrl("dubbo://" + settings.host() + ":" + settings.port() + "/" + MobileService.class.getName()
        + "?serialization=" + serialization + "&prefer.serialization=" + serialization
        + "&client=" + ExactAddressTransporter.NAME + "&payload=" + maxPayload
        // A lost connection is retried every max(least-reconnect-duration, heartbeat) ms, by default
        // every 60 s: a restarted server went unused for 45-50 s. Retry every second instead.
        + "&heartbeat=" + RECONNECT_MILLIS + "&dubbo.application.least-reconnect-duration=" + RECONNECT_MILLIS);
    reference.setTimeout((int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis()));
    reference.setRetries(0); // a retry would hide a failure and count one call twice
    reference.setCheck(true); // fail at start, not on the first call, if the server is not there
    if (settings.connections() > 0) {
      reference.setConnections(settings.connections());
    }
    bootstrap = DubboBootstrap.newInstance();
    bootstrap.application(application).reference(reference).start();
    service = reference.get();
  }

  @Override
  public CompletionStage<Order> callAsync(Order request) {
    return service.helloAsync(request);
  }

  @Override
  public Order callSync(Order request) {
    return service.hello(request);
  }

  @Override
  public boolean isTimeout(Throwable error) {
    return error instanceof TimeoutException || error instanceof RpcException e && e.isTimeout();
  }

  @Override
  public String sizeLimit(Throwable error, Order request) {
    // Dubbo's codec, on either side: "Data length too large: 10000136, max payload: 8388608, channel: ..."
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      Matcher m = TOO_LARGE.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        return SizeLimit.message("dubbo", "message", Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
            "--payload");
      }
    }
    return null;
  }

  @Override
  public String errorCode(Throwable error) {
    if (error instanceof RpcException e) {
      return switch (e.getCode()) {
        case RpcException.NETWORK_EXCEPTION -> "dubbo network";
        case RpcException.TIMEOUT_EXCEPTION -> "dubbo timeout";
        case RpcException.BIZ_EXCEPTION -> "dubbo biz";
        case RpcException.FORBIDDEN_EXCEPTION -> "dubbo forbidden";
        case RpcException.SERIALIZATION_EXCEPTION -> "dubbo serialization";
        case RpcException.NO_INVOKER_AVAILABLE_AFTER_FILTER -> "dubbo no invoker";
        case RpcException.LIMIT_EXCEEDED_EXCEPTION -> "dubbo limit exceeded";
        default -> "dubbo " + e.getCode();
      };
    }
    return error.getClass().getSimpleName();
  }

  @Override
  public void close() {
    bootstrap.destroy();
  }
}
