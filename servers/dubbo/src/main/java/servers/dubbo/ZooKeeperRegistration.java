package servers.dubbo;

import java.util.List;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.registry.Registry;
import org.apache.dubbo.registry.RegistryFactory;
import servers.common.EchoServerMain;

/**
 * A provider's {@code --registry none|zookeeper://host:port}: its exported URLs registered at the
 * address the server binds, through Dubbo's own ZooKeeper registry. Dubbo's own registration would
 * publish the machine's network address instead, since it takes any 127.x host (even one given as
 * DUBBO_IP_TO_REGISTRY) for "no host" and looks one up.
 */
final class ZooKeeperRegistration {
  /** --registry's default: clients connect directly. */
  static final String NO_REGISTRY = "none";
  /** How long the provider waits to connect to its registry before it fails to start. */
  static final int TIMEOUT_MILLIS = 5_000;

  private ZooKeeperRegistration() {}

  /** The flag's value, checked: {@code none} or {@code zookeeper://host:port}. */
  static String checked(String address) {
    if (!address.equals(NO_REGISTRY) && !address.matches("zookeeper://[^/?]+:\\d+")) {
      throw new IllegalArgumentException("--registry must be none or zookeeper://host:port, got '" + address + "'");
    }
    return address;
  }

  /**
   * Registers what {@code bootstrap} exported under {@code host} (as the server's clients must reach
   * it) and returns how to stop the server: unregister, then destroy. With no registry, destroy only.
   */
  static EchoServerMain.RunningServer register(DubboBootstrap bootstrap, String address, List<URL> exported,
                                               String host) {
    if (address.equals(NO_REGISTRY)) {
      return bootstrap::destroy;
    }
    Registry registry;
    List<URL> registered;
    try {
      URL registryUrl = URL.valueOf(address + "?timeout=" + TIMEOUT_MILLIS).setScopeModel(bootstrap.getApplicationModel());
      registry = bootstrap.getApplicationModel().getExtensionLoader(RegistryFactory.class)
          .getExtension("zookeeper").getRegistry(registryUrl);
      registered = exported.stream().map(u -> u.setHost(host)).toList();
      registered.forEach(registry::register);
    } catch (RuntimeException e) {
      bootstrap.destroy();
      throw e;
    }
    return () -> {
      registered.forEach(registry::unregister);
      registry.destroy();
      bootstrap.destroy();
    };
  }
}
