package protocols.rpc;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.protocol.ProtocolKey;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The run's observer as a Gatling protocol, so every request of a run reaches the same one without a
 * static: Gatling builds a protocol's components once per run and hands them to each action. A
 * simulation sets it beside its frameworks' protocols ({@code setUp(...).protocols(grpc, RpcRun.observedBy(...))});
 * without it, the first {@link RunObserver.Factory} on the class path observes the run.
 */
public final class RpcRun implements Protocol, ProtocolBuilder {
  public static final Key KEY = new Key();
  private final Function<CoreComponents, RunObserver> factory;

  private RpcRun(Function<CoreComponents, RunObserver> factory) {
    this.factory = factory;
  }

  /** The run observed by what {@code factory} makes, once per run. */
  public static RpcRun observedBy(Function<CoreComponents, RunObserver> factory) {
    return new RpcRun(factory);
  }

  /** The first {@link RunObserver.Factory} on the class path, else no observer. */
  static RpcRun fromClassPath() {
    return ServiceLoader.load(RunObserver.Factory.class).findFirst()
        .map(f -> new RpcRun(f::create)).orElse(new RpcRun(core -> RunObserver.NONE));
  }

  @Override
  public Protocol protocol() {
    return this;
  }

  /** What every action of the run shares: its observer. */
  public static final class Components implements ProtocolComponents {
    private final RunObserver observer;

    Components(RunObserver observer) {
      this.observer = observer;
    }

    public RunObserver observer() {
      return observer;
    }

    @Override
    public Function1<Session, Session> onStart() {
      return session -> session;
    }

    @Override
    public Function1<Session, BoxedUnit> onExit() {
      return session -> BoxedUnit.UNIT;
    }
  }

  /** Gatling's key for it: one observer per protocol instance and run, ended when the run ends. */
  public static final class Key implements ProtocolKey<RpcRun, Components> {
    private Key() {}

    @Override
    @SuppressWarnings("unchecked")
    public Class<Protocol> protocolClass() {
      return (Class<Protocol>) (Class<?>) RpcRun.class;
    }

    @Override
    public RpcRun defaultProtocolValue(GatlingConfiguration configuration) {
      return fromClassPath();
    }

    @Override
    public Function1<RpcRun, Components> newComponents(CoreComponents core) {
      Map<RpcRun, Components> made = new IdentityHashMap<>();
      return run -> {
        synchronized (made) {
          return made.computeIfAbsent(run, r -> {
            RunObserver observer = r.factory.apply(core);
            core.actorSystem().registerOnTermination(() -> {
              observer.end();
              return BoxedUnit.UNIT;
            });
            return new Components(observer);
          });
        }
      };
    }
  }
}
