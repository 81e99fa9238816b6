package protocols.lab;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * The server processes the lab started, by the echo they serve: every process of it (providers and
 * registry, over their restarts), and its providers alone. A level's CPU per call and its profile count
 * only its own echo's.
 */
final class ServerProcesses {
  private final Map<String, Supplier<Set<Long>>> servers = new ConcurrentHashMap<>();
  private final Map<String, Supplier<Set<Long>>> providers = new ConcurrentHashMap<>();

  void add(String echo, Supplier<Set<Long>> all, Supplier<Set<Long>> providersOnly) {
    servers.put(echo, all);
    providers.put(echo, providersOnly);
  }

  /** Every provider process started so far. */
  Set<Long> providers() {
    Set<Long> all = new HashSet<>();
    providers.values().forEach(s -> all.addAll(s.get()));
    return all;
  }

  /**
   * The provider processes of the echo named {@code echo} (a level's framework, or a stream level's);
   * with none named, the only echo's, or every one where the lab started several.
   */
  Set<Long> providersOf(String echo) {
    Supplier<Set<Long>> pids = echo != null ? providers.get(echo)
        : providers.size() == 1 ? providers.values().iterator().next() : null;
    return pids == null ? providers() : pids.get();
  }

  /**
   * Which server processes are the echo {@code echo}'s own: its providers and registry; with none
   * named, the only echo's; null (every server counts) where the lab started none of it, or several.
   */
  LongPredicate ownServers(String echo) {
    Supplier<Set<Long>> pids = echo != null ? servers.get(echo)
        : servers.size() == 1 ? servers.values().iterator().next() : null;
    if (pids == null) {
      return null;
    }
    Set<Long> own = pids.get();
    return own::contains;
  }
}
