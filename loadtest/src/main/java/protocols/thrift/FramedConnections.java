package protocols.thrift;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.reflect.Constructor;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TByteArrayOutputStream;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import protocols.rpc.GatlingLoops;
import protocols.rpc.HostPort;

/**
 * Thrift calls made on Gatling's own event loops, as Netty-based Thrift clients (Finagle's, Nifty)
 * make them: the generated client's {@code send_x} and {@code recv_x} over framed connections of the
 * lab's. A Thrift connection carries one call at a time, so each loop keeps its own idle connections
 * (touched on that loop only: no lock) and opens one more when all are busy: one per call in flight,
 * as the async client's pool. A call, its reply and the user's next call stay on the user's loop.
 * Each call times out on its loop's timer, and its connection is then closed (a late reply would
 * answer the next call).
 */
final class FramedConnections implements AutoCloseable {
  private static final int LENGTH_BYTES = 4;

  private final EventLoopGroup group;
  private final boolean ownsGroup;
  private final EventLoop[] loops;
  /** Per loop, its idle connections, most recently used first; each deque touched on its loop only. */
  private final List<ArrayDeque<Connection>> idle;
  private final Set<Channel> open = ConcurrentHashMap.newKeySet();
  private final Bootstrap bootstrap;
  private final List<HostPort> targets;
  private final TProtocolFactory protocol;
  private final TConfiguration configuration;
  private final int maxFrame;
  private final long timeoutMillis;
  private final AtomicInteger turns = new AtomicInteger();
  private final AtomicInteger nextTarget = new AtomicInteger();
  private volatile boolean closed;

  /** @param gatlingLoops the loops to run on (Gatling's, or the plain driver's); null: a group of its own */
  FramedConnections(EventLoopGroup gatlingLoops, List<HostPort> targets, TProtocolFactory protocol, int maxFrame,
                    long timeoutMillis) {
    ownsGroup = gatlingLoops == null;
    group = ownsGroup ? GatlingLoops.newGroup() : gatlingLoops;
    loops = GatlingLoops.of(group);
    List<ArrayDeque<Connection>> perLoop = new java.util.ArrayList<>();
    for (int i = 0; i < loops.length; i++) {
      perLoop.add(new ArrayDeque<>());
    }
    idle = List.copyOf(perLoop);
    this.targets = List.copyOf(targets);
    this.protocol = protocol;
    this.maxFrame = maxFrame;
    this.timeoutMillis = timeoutMillis;
    this.configuration = ThriftClient.configuration(maxFrame);
    bootstrap = new Bootstrap().group(group).channel(GatlingLoops.socketChannelType(group))
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
  }

  /** One call: its halves on the generated client {@code type}, and its reply. */
  private record Call<B extends TServiceClient, Req, Resp>(Constructor<B> make, ThriftMethod.Send<B, Req> send,
                                                           ThriftMethod.Receive<B, Resp> receive, Req request,
                                                           CompletableFuture<Resp> reply) {
    void sendOn(B client) throws org.apache.thrift.TException {
      send.send(client, request);
    }
  }

  /**
   * Makes the call on the calling thread's loop if it is one of these (a virtual user's), else on the
   * next loop in turn; the reply completes on that loop.
   */
  <B extends TServiceClient, Req, Resp> CompletableFuture<Resp> call(Constructor<B> make, ThriftMethod.Send<B, Req> send,
                                                                     ThriftMethod.Receive<B, Resp> receive, Req request) {
    Call<B, Req, Resp> call = new Call<>(make, send, receive, request, new CompletableFuture<>());
    int loop = GatlingLoops.connectionFor(loops, loops.length, turns);
    if (loops[loop].inEventLoop()) {
      start(loop, call);
    } else {
      try {
        loops[loop].execute(() -> start(loop, call));
      } catch (RejectedExecutionException e) {
        call.reply.completeExceptionally(new TTransportException(TTransportException.NOT_OPEN, "thrift: client closed"));
      }
    }
    return call.reply;
  }

  /** On loop {@code loop}: an idle connection of its own, or a new one. */
  private void start(int loop, Call<?, ?, ?> call) {
    if (closed) {
      call.reply.completeExceptionally(new TTransportException(TTransportException.NOT_OPEN, "thrift: client closed"));
      return;
    }
    ArrayDeque<Connection> mine = idle.get(loop);
    for (Connection c = mine.pollFirst(); c != null; c = mine.pollFirst()) {
      if (c.channel.isActive()) {
        c.send(call);
        return;
      }
    }
    HostPort target = targets.get(Math.floorMod(nextTarget.getAndIncrement(), targets.size()));
    ChannelFuture connecting = bootstrap.clone(loops[loop]).handler(new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(maxFrame + LENGTH_BYTES, 0, LENGTH_BYTES, 0,
            LENGTH_BYTES), new Connection(loop, ch));
      }
    }).connect(target.host(), target.port());
    connecting.addListener(f -> {
      if (f.isSuccess() && closed) {
        connecting.channel().close();
        call.reply.completeExceptionally(new TTransportException(TTransportException.NOT_OPEN, "thrift: client closed"));
      } else if (f.isSuccess()) {
        open.add(connecting.channel());
        connecting.channel().closeFuture().addListener(closing -> open.remove(connecting.channel()));
        connecting.channel().pipeline().get(Connection.class).send(call);
      } else {
        call.reply.completeExceptionally(new TTransportException(TTransportException.NOT_OPEN,
            "could not connect to " + target + ": " + protocols.rpc.Errors.oneLine(f.cause()), f.cause()));
      }
    });
  }

  /** One framed connection: its transports, a generated client per type, and the call in flight. */
  private final class Connection extends SimpleChannelInboundHandler<ByteBuf> {
    private final int loop;
    private final Channel channel;
    private final TByteArrayOutputStream out = new TByteArrayOutputStream(256);
    private final TMemoryInputTransport in;
    private final TProtocol input;
    private final TProtocol output;
    /** The generated clients made on this connection, by type: their sequence ids run per connection. */
    private final Map<Constructor<?>, TServiceClient> clients = new HashMap<>(2);
    private Call<?, ?, ?> current;
    private ScheduledFuture<?> timeout;

    Connection(int loop, Channel channel) {
      this.loop = loop;
      this.channel = channel;
      try {
        in = new TMemoryInputTransport(configuration);
        input = protocol.getProtocol(in);
        output = protocol.getProtocol(new TIOStreamTransport(configuration, out));
      } catch (TTransportException e) {
        throw new IllegalStateException(e);
      }
    }

    @SuppressWarnings("unchecked")
    private <B extends TServiceClient> B client(Constructor<B> make) throws TTransportException {
      TServiceClient c = clients.get(make);
      if (c == null) {
        try {
          c = make.newInstance(input, output);
        } catch (ReflectiveOperationException e) {
          throw new TTransportException("could not make a " + make.getDeclaringClass().getName() + ": " + e);
        }
        clients.put(make, c);
      }
      return (B) c;
    }

    /** Writes {@code call}'s request as one frame and waits for its reply, at most the timeout. */
    <B extends TServiceClient> void send(Call<B, ?, ?> call) {
      current = call;
      out.reset();
      try {
        call.sendOn(client(call.make()));
      } catch (Exception e) {
        current = null;
        idle.get(loop).addFirst(this); // nothing was sent: the connection is as good as before
        call.reply.completeExceptionally(e);
        return;
      }
      ByteBuf frame = channel.alloc().buffer(LENGTH_BYTES + out.len());
      frame.writeInt(out.len()).writeBytes(out.get(), 0, out.len());
      timeout = channel.eventLoop().schedule(() -> fail(call, new TimeoutException()), timeoutMillis,
          TimeUnit.MILLISECONDS);
      channel.writeAndFlush(frame).addListener(f -> {
        if (!f.isSuccess()) {
          fail(call, new TTransportException(TTransportException.NOT_OPEN, protocols.rpc.Errors.oneLine(f.cause()),
              f.cause()));
        }
      });
    }

    /** The call in flight fails, if it is still {@code call}; the connection cannot be trusted and closes. */
    private void fail(Call<?, ?, ?> call, Throwable error) {
      if (current != call) {
        return;
      }
      current = null;
      timeout.cancel(false);
      channel.close();
      call.reply.completeExceptionally(error);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      Call<?, ?, ?> call = current;
      if (call == null) {
        channel.close(); // a reply to no call: the server is out of step
        return;
      }
      current = null;
      timeout.cancel(false);
      in.reset(ByteBufUtil.getBytes(frame));
      answer(call);
    }

    private <B extends TServiceClient, Resp> void answer(Call<B, ?, Resp> call) {
      Resp reply;
      try {
        reply = call.receive().receive(client(call.make()));
      } catch (TTransportException | TProtocolException e) {
        channel.close(); // a broken frame or stream: the connection cannot be trusted
        call.reply.completeExceptionally(e);
        return;
      } catch (Exception e) {
        idle.get(loop).addFirst(this); // the server answered, with an error: the connection is fine
        call.reply.completeExceptionally(e);
        return;
      }
      // Idle before the reply completes: the user's next call, made on this loop as it completes, takes it.
      idle.get(loop).addFirst(this);
      call.reply.complete(reply);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (current != null) {
        fail(current, new TTransportException(TTransportException.END_OF_FILE, closed ? "thrift: client closed"
            : "connection closed by the server"));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable error = cause;
      java.util.OptionalLong tooLong = protocols.rpc.SizeLimit.tooLongFrame(cause);
      if (tooLong.isPresent()) {
        // In the words of Thrift's own framed transport, which ThriftClient#sizeLimit reads.
        long size = tooLong.getAsLong() >= 0 ? tooLong.getAsLong() - LENGTH_BYTES : -1;
        error = new TTransportException(TTransportException.CORRUPTED_DATA, "Frame size (" + size
            + ") larger than max length (" + maxFrame + ")!");
      }
      if (current != null) {
        fail(current, error);
      } else {
        channel.close();
      }
    }
  }

  /** Connections open now, on every loop. */
  int size() {
    return open.size();
  }

  @Override
  public void close() {
    closed = true;
    open.forEach(Channel::close);
    if (ownsGroup) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }
}
