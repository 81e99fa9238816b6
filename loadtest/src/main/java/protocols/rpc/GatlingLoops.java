package protocols.rpc;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For Netty-based clients that do their I/O on Gatling's own event loops: a connection per loop, and
 * each virtual user's calls on its own loop's connection, so replies complete where the user runs.
 */
public final class GatlingLoops {
  private GatlingLoops() {}

  /**
   * A group laid out like Gatling's own: one loop per core, native epoll where it is available. The
   * plain driver's, so that both drivers give a client the same connections.
   */
  public static EventLoopGroup newGroup() {
    return new MultiThreadIoEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
        Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
  }

  /** The loops of {@code group}, in a fixed order: connection i lives on loop i (modulo). */
  public static EventLoop[] of(EventLoopGroup group) {
    List<EventLoop> loops = new ArrayList<>();
    group.forEach(e -> loops.add((EventLoop) e));
    return loops.toArray(EventLoop[]::new);
  }

  /** The socket channel type of the group's I/O (Gatling's is native epoll on Linux where it can be). */
  public static Class<? extends SocketChannel> socketChannelType(EventLoopGroup group) {
    if (group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class)) {
      return EpollSocketChannel.class;
    }
    return NioSocketChannel.class;
  }

  /**
   * Which of {@code n} connections a call takes, connection i living on {@code loops[i % loops.length]}:
   * with one connection per loop, the calling thread's loop's; else, from connection {@code turn}
   * (the next of {@code turns}, modulo n) on, the first one on the calling thread's own loop (its reply
   * then completes there), else connection {@code turn} itself. A caller on a loop with a connection of
   * its own touches no counter the loops share (a contended cache line per call).
   */
  public static int connectionFor(EventLoop[] loops, int n, AtomicInteger turns) {
    if (n == loops.length) {
      for (int i = 0; i < n; i++) {
        if (loops[i].inEventLoop()) {
          return i;
        }
      }
    }
    int start = Math.floorMod(turns.getAndIncrement(), n);
    for (int k = 0; k < n; k++) {
      int i = (start + k) % n;
      if (loops[i % loops.length].inEventLoop()) {
        return i;
      }
    }
    return start;
  }
}
