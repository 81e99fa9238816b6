package protocols.rpc;

import io.netty.channel.EventLoop;
import java.util.concurrent.RejectedExecutionException;

/** How a completed call gets back to its virtual user's event loop: the one hop both actions make. */
final class ReplyHop {
  private ReplyHop() {}

  /**
   * Runs {@code completion} on {@code loop}: at once when the reply came on that loop (a client on
   * Gatling's loops: no hop) and not from inside the send ({@code inSend}: completing there would nest
   * the user's next call in this one's stack); else as a task on it. Nothing once the loop is shutting
   * down: the run has ended and nobody waits for this user.
   */
  static void resume(EventLoop loop, boolean inSend, Runnable completion) {
    if (!inSend && loop.inEventLoop()) {
      completion.run();
      return;
    }
    try {
      loop.execute(completion);
    } catch (RejectedExecutionException runIsOver) {
      // the event loop is shutting down
    }
  }
}
