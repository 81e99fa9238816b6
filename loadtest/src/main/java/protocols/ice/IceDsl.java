package protocols.ice;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.ObjectPrx;
import com.zeroc.Ice.OperationMode;
import contract.SampleOrder;
import contract.zeroc.IceSettings;
import contract.zeroc.MobileServicePrx;
import contract.zeroc.Order;
import java.util.function.Function;
import protocols.rpc.RpcSettings;
import protocols.rpc.RpcRequest;

/**
 * The Ice DSL: {@code ice} is the protocol; {@code ice("name").proxy("orders", OrderServicePrx::uncheckedCast)
 * .call((prx, req) -> prx.placeAsync(req))} calls an operation through your generated proxy,
 * {@code ice("name").dynamic("orders", "place")} one without generated code.
 */
public final class IceDsl {
  /** The protocol builder, with Ice's defaults (127.0.0.1:10000, one shared connection, async). */
  public static final IceProtocol ice = new IceProtocol(RpcSettings.defaults(10000));

  private IceDsl() {}

  /** A request named {@code name} (Gatling EL allowed); then say which object. */
  public static Named ice(String name) {
    return () -> name;
  }

  /** A named Ice request waiting for its object. */
  @FunctionalInterface
  public interface Named {
    String name();

    /** The object {@code identity} through its typed proxy, e.g. {@code OrderServicePrx::uncheckedCast}. */
    default <P> IceMethod.Proxy<P> proxy(String identity, Function<ObjectPrx, P> cast) {
      return new IceMethod.Proxy<>(name(), identity, cast);
    }

    /** The operation {@code operation} of object {@code identity}, without generated code ({@link IceDynamic}). */
    default RpcRequest<IceClient, byte[], byte[]> dynamic(String identity, String operation) {
      return IceDynamic.request(name(), identity, operation, OperationMode.Normal);
    }
  }

  /** The write-ups' sample order with the given id. */
  public static Order order(long orderId) {
    return order(orderId, SampleOrder.NAME);
  }

  /** The sample order with another name (-DorderNameChars). */
  public static Order order(long orderId, String name) {
    return SampleOrder.make(Order::new, orderId, name);
  }
}
