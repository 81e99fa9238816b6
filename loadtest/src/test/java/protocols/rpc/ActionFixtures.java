package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.stats.Status;
import io.gatling.core.action.Action;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import scala.Option;

/** The in-process client, protocol, stats engine and next action the action tests drive. */
final class ActionFixtures {
  private ActionFixtures() {
  }

  /** The action after the call: checks the user resumes on its own event loop, and hands its session over. */
  static final class Resume implements Action {
    private final io.netty.channel.EventLoop loop;
    private final java.util.Queue<Session> resumed;
    private com.typesafe.scalalogging.Logger logger =
        com.typesafe.scalalogging.Logger.apply(org.slf4j.LoggerFactory.getLogger(Resume.class));

    Resume(io.netty.channel.EventLoop loop, java.util.Queue<Session> resumed) {
      this.loop = loop;
      this.resumed = resumed;
    }

    @Override
    public String name() {
      return "resume";
    }

    @Override
    public void execute(Session session) {
      assertTrue(loop.inEventLoop(), "the user resumes on its own event loop");
      resumed.add(session);
    }

    @Override
    public com.typesafe.scalalogging.Logger logger() {
      return logger;
    }

    @Override
    public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(com.typesafe.scalalogging.Logger l) {
      logger = l;
    }
  }

  /** A client whose one method is a function; its blocking form waits for it. */
  static class FunctionClient implements RpcClient {
    static final RpcMethod<FunctionClient, String, String> METHOD = new RpcMethod<>() {
      @Override
      public CompletionStage<String> callAsync(FunctionClient client, String request) {
        return client.callAsync(request);
      }

      @Override
      public String callSync(FunctionClient client, String request, long timeoutMillis) throws Exception {
        return client.callSync(request);
      }
    };
    private final Function<String, CompletableFuture<String>> f;

    FunctionClient(Function<String, CompletableFuture<String>> f) {
      this.f = f;
    }

    CompletionStage<String> callAsync(String request) {
      return f.apply(request);
    }

    String callSync(String request) throws Exception {
      return f.apply(request).get();
    }

    @Override
    public void close() {}
  }

  static final class TestProtocol extends RpcProtocol<TestProtocol, FunctionClient> {
    static final RpcProtocolKey<TestProtocol> KEY = new RpcProtocolKey<>(TestProtocol.class);

    TestProtocol(RpcSettings settings, FunctionClient client) {
      super(settings, new Spec<>(KEY, "test", 1024, s -> new TestProtocol(s, client), (p, loops) -> client));
    }

    @Override
    public ClientPath clientPath() {
      return new ClientPath("one in all", "the test's one client", 1, "completed by the test, resumed on the user's loop");
    }
  }

  static final class Logged {
    Status status;
    Option<String> code;
    Option<String> message;
    Session session;
  }

  /** Gatling's StatsEngine interface, recording what the action logs. */
  static final class RecordingStats implements StatsEngine {
    final List<Logged> responses = new CopyOnWriteArrayList<>();

    @Override
    public void logResponse(String scenario, scala.collection.immutable.List<String> groups, String requestName,
                            long start, long end, Status status, Option<String> code, Option<String> message) {
      Logged l = new Logged();
      l.status = status;
      l.code = code;
      l.message = message;
      responses.add(l);
    }

    @Override
    public void start() {}

    @Override
    public void stop(ActorRef<Controller.Command> controller, Option<Exception> exception) {}

    @Override
    public void logUserStart(String scenario) {}

    @Override
    public void logUserEnd(String scenario) {}

    @Override
    public void logGroupEnd(String scenario, GroupBlock groupBlock, long exitTimestamp) {}

    @Override
    public void logRequestCrash(String scenario, scala.collection.immutable.List<String> groups, String requestName,
                                String error) {}
  }
}
