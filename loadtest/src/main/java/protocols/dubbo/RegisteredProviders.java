package protocols.dubbo;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.dubbo.common.URL;
import protocols.rpc.Errors;
import protocols.rpc.Registry;

/**
 * What a ZooKeeper registry lists for a service under {@code /dubbo/<interface>/providers}, where a
 * provider registers with Dubbo's defaults: to say which addresses a run found, and why none answered.
 * A provider bound to 127.0.0.1 registers the machine's first interface address unless told otherwise
 * (Dubbo takes 127.0.0.1 for "no host set"), so the address found is the first thing to show.
 */
final class RegisteredProviders {
  /** One provider entry: its protocol, registered address, version and group. */
  record Entry(String protocol, String address, String version, String group) {
    String label() {
      return protocol + "://" + address + (version.isEmpty() ? "" : " version " + version)
          + (group.isEmpty() ? "" : " group " + group);
    }
  }

  private RegisteredProviders() {}

  static String path(String service) {
    return "/dubbo/" + service + "/providers";
  }

  /** The entries under the service's providers path; empty when there is none. */
  static List<Entry> read(Registry registry, String service, int timeoutMillis) throws Exception {
    try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(registry.address().toString())
        .retryPolicy(new RetryOneTime(100)).connectionTimeoutMs(timeoutMillis).sessionTimeoutMs(timeoutMillis)
        .build()) {
      zk.start();
      if (!zk.blockUntilConnected(timeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("nothing answered at " + registry.address() + " within " + timeoutMillis
            + " ms");
      }
      if (zk.checkExists().forPath(path(service)) == null) {
        return List.of();
      }
      List<Entry> out = new ArrayList<>();
      for (String child : zk.getChildren().forPath(path(service))) {
        URL url = URL.valueOf(URLDecoder.decode(child, StandardCharsets.UTF_8));
        out.add(new Entry(url.getProtocol(), url.getAddress(), url.getVersion() == null ? "" : url.getVersion(),
            url.getGroup() == null ? "" : url.getGroup()));
      }
      return out;
    }
  }

  /** The entries this reference would call: its protocol, version and group. */
  static List<Entry> matching(List<Entry> entries, boolean triple, String version, String group) {
    return entries.stream().filter(e -> e.protocol().equals(triple ? "tri" : "dubbo") && e.version().equals(version)
        && e.group().equals(group)).toList();
  }

  /** Why no provider answered, from what the registry lists for the service; or why that list could not be read. */
  static String whyNone(Registry registry, String service, boolean triple, String version, String group,
                        int timeoutMillis) {
    try {
      return whyNone(registry, service, triple, version, group, read(registry, service, timeoutMillis));
    } catch (Exception e) {
      return unreadable(registry, service, e);
    }
  }

  static String unreadable(Registry registry, String service, Exception why) {
    return "no provider of " + service + " could be found through " + registry + ": its list could not be read ("
        + Errors.oneLine(why) + "): is ZooKeeper listening at that address and port?";
  }

  /** Where a reference found its providers, for the console and the protocol table: an address nobody chose shows. */
  static String found(Registry registry, String service, List<String> addresses) {
    return service + " found in " + registry + " (" + path(service) + ") at " + (addresses.isEmpty() ? "no address"
        : String.join(", ", addresses));
  }

  /** What to do when a registered address answers nothing. */
  static final String UNREACHABLE_HINT = "if the provider listens elsewhere, Dubbo registered an address nobody chose"
      + " (it takes a 127.x dubbo.protocol.host or DUBBO_IP_TO_REGISTRY for no host, and registers the machine's"
      + " first interface address); set the provider's dubbo.protocol.host to an address this injector reaches"
      + " (127.0.0.1 over Triple: 2130706433, its numeric form, which Dubbo keeps)";

  /** Why no provider of {@code service} answered, in one line, from what the registry lists. */
  static String whyNone(Registry registry, String service, boolean triple, String version, String group,
                        List<Entry> entries) {
    String where = registry + " (" + path(service) + ")";
    if (entries.isEmpty()) {
      return "no provider of " + service + " is registered in " + where + ": is it started, and registered in"
          + " this ZooKeeper?";
    }
    List<Entry> candidates = matching(entries, triple, version, group);
    String asked = (triple ? "tri" : "dubbo") + (version.isEmpty() ? ", no version" : ", version " + version)
        + (group.isEmpty() ? ", no group" : ", group " + group);
    if (candidates.isEmpty()) {
      return "no provider of " + service + " matches this request (" + asked + ") in " + where + "; registered: "
          + String.join("; ", entries.stream().map(Entry::label).toList()) + ": set the request's .version(...)"
          + " and .group(...) to one of them";
    }
    return service + " is registered in " + where + " at " + String.join(", ", candidates.stream()
        .map(Entry::address).toList()) + ", and nothing answered there: " + UNREACHABLE_HINT;
  }
}
