package protocols.dubbo;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Callback mode on Dubbo: its event notification. A reference whose methods are {@code async} with
 * {@code onreturn}/{@code onthrow} set to this notifier returns at once, and Dubbo calls
 * {@link #onReturn} or {@link #onThrow} with the reply and the call's arguments. Calls are told
 * apart by their first argument's identity, so each call in flight needs its own (a fresh request per
 * call, as the lab's echo makes); one already in flight fails the call at once instead of mixing
 * two replies. Public: Dubbo finds these methods by reflection.
 */
public final class DubboNotifier {
  private final Map<Key, BiConsumer<Object, Throwable>> pending = new ConcurrentHashMap<>();
  /** The callback of the call this thread is making through a {@link #caller}. */
  private final ThreadLocal<BiConsumer<Object, Throwable>> making = new ThreadLocal<>();

  /** The first argument, by identity. */
  private record Key(Object argument) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.argument == argument;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(argument);
    }
  }

  /**
   * {@code notifying} (Dubbo's proxy of a notifying reference) behind a proxy that registers the
   * callback of the call being made ({@link #making}) under its first argument before Dubbo sends it.
   */
  <S> S caller(Class<S> type, S notifying) {
    InvocationHandler handler = (proxy, method, args) -> call(notifying, method, args);
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  /** Runs {@code call}, which calls a method of a {@link #caller} on this thread, with {@code done} as its callback. */
  void making(BiConsumer<Object, Throwable> done, Call call) throws Exception {
    making.set(done);
    try {
      call.run();
    } finally {
      making.remove();
    }
  }

  /** A call through a {@link #caller}. */
  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  private Object call(Object notifying, Method method, Object[] args) throws Throwable {
    BiConsumer<Object, Throwable> done = making.get();
    if (method.getDeclaringClass() == Object.class || done == null) {
      return method.invoke(notifying, args);
    }
    making.remove(); // one call per callback
    if (args == null || args.length == 0 || args[0] == null) {
      throw new IllegalStateException("Dubbo's event notification tells calls apart by their first argument: "
          + method.getName() + " has none");
    }
    Key key = new Key(args[0]);
    if (pending.putIfAbsent(key, done) != null) {
      throw new IllegalStateException("this request object is already in flight: Dubbo's event notification tells"
          + " calls apart by their first argument, so make a new request per call");
    }
    try {
      return method.invoke(notifying, args); // async: returns at once, Dubbo notifies later
    } catch (InvocationTargetException e) {
      pending.remove(key, done);
      throw e.getCause();
    } catch (RuntimeException e) {
      pending.remove(key, done);
      throw e;
    }
  }

  /** Dubbo's onreturn: the reply and the call's arguments. */
  public void onReturn(Object result, Object[] args) {
    BiConsumer<Object, Throwable> done = args.length == 0 ? null : pending.remove(new Key(args[0]));
    if (done != null) {
      done.accept(result, null);
    }
  }

  /** Dubbo's onthrow: the error and the call's arguments. */
  public void onThrow(Throwable error, Object[] args) {
    BiConsumer<Object, Throwable> done = args.length == 0 ? null : pending.remove(new Key(args[0]));
    if (done != null) {
      done.accept(null, error);
    }
  }
}
