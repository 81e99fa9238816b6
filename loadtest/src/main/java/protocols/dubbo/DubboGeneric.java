package protocols.dubbo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;
import org.apache.dubbo.remoting.RemotingException;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.service.GenericService;
import protocols.rpc.Errors;
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
    return RpcRequest.of(DubboProtocol.KEY, name, new Call(this, method, parameterTypes.clone(), null, Set.of()));
  }

  /** How the provider's generic filter words a refusal it sends back, before the call reaches the service. */
  private static final String REFUSED = "org.apache.dubbo.rpc.RpcException: ";
  /** A refusal that is an exception's own line: the arguments could not be made into the parameter types. */
  private static final Pattern EXCEPTION_LINE = Pattern.compile("([a-z]\\w*\\.)+\\w*(Exception|Error)(: .*)?");

  private static final class Call implements RpcMethod<DubboClient, String, Object> {
    private final DubboGeneric service;
    private final String method;
    private final String[] types;
    private final GenericService proxy;
    /** The methods its providers registered; empty when unknown (a direct target). */
    private final Set<String> registered;

    Call(DubboGeneric service, String method, String[] types, GenericService proxy, Set<String> registered) {
      this.service = service;
      this.method = Objects.requireNonNull(method, "method");
      this.types = types;
      this.proxy = proxy;
      this.registered = registered;
    }

    @Override
    public RpcMethod<DubboClient, String, Object> prepare(DubboClient client) {
      GenericService p = client.generic(service.serviceName, service.version, service.group);
      Set<String> methods = client.registeredMethods(service.serviceName, service.version, service.group);
      if (!methods.isEmpty() && !methods.contains(method)) {
        throw new IllegalStateException(service.serviceName + " has no method " + method + ": its providers"
            + " registered " + String.join(", ", methods));
      }
      return new Call(service, method, types, p, methods);
    }

    private String signature() {
      return method + "(" + String.join(", ", types) + ")";
    }

    /**
     * The provider's refusal of a generic call, in one line that names the mistake: a method or parameter
     * class it does not have, or arguments that do not fit the parameter types. Other errors as they are.
     */
    private Throwable named(Throwable error) {
      Throwable e = Errors.unwrap(error);
      while (e != null && !(e instanceof RemotingException)) { // a sync call's comes inside Dubbo's RpcException
        e = e.getCause() == e ? null : e.getCause();
      }
      if (e == null || e.getMessage() == null || !e.getMessage().startsWith(REFUSED)) {
        return error;
      }
      String why = e.getMessage().substring(REFUSED.length()).lines().findFirst().orElse("").trim();
      if (why.startsWith("No such method " + method + " ")) {
        return new RpcException(RpcException.METHOD_NOT_FOUND, service.serviceName + " has no method " + signature()
            + (registered.contains(method) ? ": it has " + method + " with other parameter types"
            : ": check the method's name and its parameter types"), e);
      }
      if (Arrays.asList(types).contains(why)) { // Dubbo says only the class's name when it has no such class
        return new RpcException(RpcException.METHOD_NOT_FOUND, "the provider of " + service.serviceName
            + " has no class " + why + " (a parameter type of " + signature() + ")", e);
      }
      if (EXCEPTION_LINE.matcher(why).matches()) {
        return new RpcException(RpcException.SERIALIZATION_EXCEPTION, "the arguments do not fit " + signature()
            + ": the provider says " + why, e);
      }
      return error;
    }

    @Override
    public CompletionStage<Object> callAsync(DubboClient client, String arguments) {
      Object[] args;
      try {
        args = arguments(arguments);
      } catch (IllegalArgumentException e) {
        return CompletableFuture.failedFuture(e);
      }
      return proxy.$invokeAsync(method, types, args).handle((reply, error) -> {
        if (error != null) {
          throw new java.util.concurrent.CompletionException(named(error));
        }
        return reply;
      });
    }

    @Override
    public Object callSync(DubboClient client, String arguments, long timeoutMillis) {
      try {
        return proxy.$invoke(method, types, arguments(arguments));
      } catch (RuntimeException e) {
        Throwable n = named(e);
        throw n instanceof RuntimeException r ? r : e;
      }
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
