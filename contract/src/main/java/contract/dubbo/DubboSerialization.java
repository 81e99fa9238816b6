package contract.dubbo;

import contract.pojo.Order;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.dubbo.common.serialize.kryo.utils.KryoUtils;

/** Dubbo serializations both sides agree on; the consumer's choice travels in its URL. */
public final class DubboSerialization {
  /** Dubbo's own default. */
  public static final String DEFAULT = "hessian2";
  /** What the write-up ran. */
  public static final String KRYO = "kryo";
  public static final List<String> SUPPORTED = List.of("hessian2", "kryo", "fastjson2");

  /** The only classes the echo ever moves; Kryo refuses any other. */
  public static final List<Class<?>> CONTRACT_CLASSES = List.of(Order.class);

  private static final AtomicBoolean KRYO_SECURED = new AtomicBoolean();

  private DubboSerialization() {}

  /**
   * Kryo with registration required and only the contract registered: any other class is refused,
   * never instantiated. Must run before Dubbo creates its first Kryo instance; later calls do nothing.
   */
  public static void secureKryo() {
    if (KRYO_SECURED.compareAndSet(false, true)) {
      KryoUtils.setRegistrationRequired(true);
      CONTRACT_CLASSES.forEach(KryoUtils::register);
    }
  }
}
