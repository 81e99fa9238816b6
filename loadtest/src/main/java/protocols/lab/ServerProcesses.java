package protocols.lab;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import protocols.stats.Level;
import protocols.stats.RequestStats;

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

  /** The provider processes of the level of {@code r}: its echo's, or every one where it names none. */
  Set<Long> providersOf(RequestStats r) {
    Level level = r.level();
    Supplier<Set<Long>> pids = level != null && level.framework() != null ? providers.get(level.framework())
        : providers.size() == 1 ? providers.values().iterator().next() : null;
    return pids == null ? providers() : pids.get();
  }

  /**
   * Which server processes are the level of {@code r}'s own: its echo's providers and registry; null
   * (every server counts) where the run started none or the level names no echo of its own.
   */
  LongPredicate ownServers(RequestStats r) {
    Level level = r.level();
    Supplier<Set<Long>> pids = level == null ? null : level.framework() != null ? servers.get(level.framework())
        : servers.size() == 1 ? servers.values().iterator().next() : null;
    if (pids == null) {
      return null;
    }
    Set<Long> own = pids.get();
    return own::contains;
  }
}
