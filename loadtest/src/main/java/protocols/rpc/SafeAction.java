package protocols.rpc;

import com.typesafe.scalalogging.Logger;
import io.gatling.core.action.Action;
import io.gatling.core.action.BlockExit;
import io.gatling.core.action.BlockExit$;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.commons.util.Clock;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * A Gatling action written in Java. Java must implement plain {@link Action}: Scala's
 * ChainableAction/ExitableAction use {@code abstract override}, which javac cannot see, so a Java
 * subclass would fail with AbstractMethodError at run time. This base does their two jobs: honour
 * exitHereIfFailed/tryMax exits, and turn a crash into a call to {@link #crashed}.
 */
public abstract class SafeAction implements Action {
  private Logger logger = Logger.apply(LoggerFactory.getLogger(getClass()));
  protected final String name;
  protected final StatsEngine statsEngine;
  protected final Clock clock;

  protected SafeAction(String name, StatsEngine statsEngine, Clock clock) {
    this.name = name;
    this.statsEngine = statsEngine;
    this.clock = clock;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }

  @Override
  public final void execute(Session session) {
    Option<BlockExit> exit = BlockExit$.MODULE$.mustExit(session);
    if (exit.isDefined()) {
      exit.get().exitBlock(statsEngine, clock.nowMillis());
      return;
    }
    try {
      send(session);
    } catch (RuntimeException | LinkageError | AssertionError e) {
      crashed(session, e);
    }
  }

  /** Does the action's work; runs on the virtual user's event loop and must not block. */
  protected abstract void send(Session session);

  /** Called when {@link #send} throws; must complete the user's step exactly once. */
  protected abstract void crashed(Session session, Throwable error);
}
