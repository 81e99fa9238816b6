package protocols.dubbo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.dubbo.rpc.service.GenericService;
import protocols.rpc.RpcMethod;
import protocols.rpc.RpcRequest;

/**
 * Dubbo's generic invocation, {@code dubbo("name").generic("com.example.OrderService").method("place",
 * "com.example.Order")}: no class of the service needed. The payload is a JSON array of the
 * arguments (objects as JSON objects, Gatling EL allowed); the reply is what Dubbo makes of the result
 * without its classes (maps, lists, strings, numbers). Immutable.
 */
public final class DubboGeneric {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final String name;
  private final String serviceName;
  private final String version;
  private final String group;

  DubboGeneric(String name, String serviceName, String version, String group) {
    this.name = name;
    this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
    this.version = Objects.requireNonNull(version, "version");
    this.group = Objects.requireNonNull(group, "group");
  }

  /** The provider's version (Dubbo's {@code version}); none by default. */
  public DubboGeneric version(String newVersion) {
    return new DubboGeneric(name, serviceName, newVersion, group);
  }

  /** The provider's group (Dubbo's {@code group}); none by default. */
  public DubboGeneric group(String newGroup) {
    return new DubboGeneric(name, serviceName, version, newGroup);
  }

  /**
   * The method and its parameter types as Java names ({@code "int"}, {@code "java.lang.String"},
   * {@code "com.example.Order"}); {@code send} takes the arguments as a JSON array.
   */
  public RpcRequest<DubboClient, String, Object> method(String method, String... parameterTypes) {
    return RpcRequest.of(DubboProtocol.KEY, name, new Call(this, method, parameterTypes.clone(), null));
  }

  private static final class Call implements RpcMethod<DubboClient, String, Object> {
    private final DubboGeneric service;
    private final String method;
    private final String[] types;
    private final GenericService proxy;

    Call(DubboGeneric service, String method, String[] types, GenericService proxy) {
      this.service = service;
      this.method = Objects.requireNonNull(method, "method");
      this.types = types;
      this.proxy = proxy;
    }

    @Override
    public RpcMethod<DubboClient, String, Object> prepare(DubboClient client) {
      return new Call(service, method, types, client.generic(service.serviceName, service.version, service.group));
    }

    @Override
    public CompletionStage<Object> callAsync(DubboClient client, String arguments) {
      Object[] args;
      try {
        args = arguments(arguments);
      } catch (IllegalArgumentException e) {
        return CompletableFuture.failedFuture(e);
      }
      return proxy.$invokeAsync(method, types, args);
    }

    @Override
    public Object callSync(DubboClient client, String arguments, long timeoutMillis) {
      return proxy.$invoke(method, types, arguments(arguments));
    }

    private Object[] arguments(String json) {
      List<?> args;
      try {
        args = JSON.readValue(json, List.class);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("the arguments of " + method + " are not a JSON array: "
            + e.getOriginalMessage());
      }
      if (args == null || args.size() != types.length) {
        throw new IllegalArgumentException(method + " takes " + types.length + " argument(s), got "
            + (args == null ? 0 : args.size()));
      }
      return args.toArray();
    }
  }
}
