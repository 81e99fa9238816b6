package protocols.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How a virtual user's call reaches the framework, as the HSF/Dubbo write-up compared them. */
public enum InvocationMode {
  /** The framework's async API; the reply resumes the user. No thread waits. */
  ASYNC,
  /** The framework's blocking call, run on a bounded client thread pool (the write-up's 200 threads). */
  SYNC,
  /**
   * The framework's callback API (a listener it calls with the reply) where it has one beside its
   * futures, e.g. gRPC's async stub with a {@code StreamObserver}; elsewhere the async path, and the
   * run's protocol table says which ({@link RpcMethod#callWithCallback}).
   */
  CALLBACK;

  /** Lower-case name, as used in -Dmode and in request names. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code async}, {@code sync}, {@code callback}, a list of them ({@code async,callback}), {@code both}
   * (async, sync) or {@code all} (async, sync, callback).
   */
  public static List<InvocationMode> parseList(String value) {
    String v = value.trim();
    if (v.equals("both")) {
      return List.of(ASYNC, SYNC);
    }
    if (v.equals("all")) {
      return List.of(values());
    }
    List<InvocationMode> modes = new ArrayList<>();
    for (String one : v.split(",")) {
      InvocationMode m = parse(one);
      if (modes.contains(m)) {
        throw new IllegalArgumentException("-Dmode lists " + m.label() + " twice");
      }
      modes.add(m);
    }
    return List.copyOf(modes);
  }

  public static InvocationMode parse(String value) {
    for (InvocationMode m : values()) {
      if (m.label().equalsIgnoreCase(value.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException("mode must be async, sync or callback, got '" + value + "'");
  }
}
