package simulations;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import protocols.rpc.HostPort;

/**
 * Bytes no echo client would send, to a server on loopback: many short garbage connections, or one
 * frame header that declares a huge frame followed by a stream of bytes.
 */
final class GarbageFlood {
  /** What a connection ended with. */
  record Outcome(int connections, int closedByServer, long bytesAccepted) {}

  private static final Duration READ_WAIT = Duration.ofSeconds(2);

  private GarbageFlood() {}

  /** Seeded, so every run sends the same bytes. */
  static byte[] randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static final byte[] HTTP_GET = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  /**
   * A header in {@code framework}'s own wire format that declares a frame of about 2 GiB: what a
   * buggy or hostile peer sends before streaming bytes.
   */
  static byte[] hugeFrameHeader(String framework) {
    switch (framework) {
      case "thrift", "netty" -> {
        return ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - 1).array();
      }
      case "dubbo" -> {
        // magic 0xdabb, request + two-way + hessian2 (2), status 0, call id, body length
        return ByteBuffer.allocate(16).putShort((short) 0xdabb).put((byte) 0xc2).put((byte) 0).putLong(1)
            .putInt(Integer.MAX_VALUE - 1).array();
      }
      case "ice" -> {
        // "IceP", protocol 1.0, encoding 1.0, request (0), not compressed, message size (little-endian)
        return ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN).put("IceP".getBytes(StandardCharsets.US_ASCII))
            .put(new byte[] {1, 0, 1, 0, 0, 0}).putInt(Integer.MAX_VALUE - 1).array();
      }
      case "grpc", "triple" -> {
        // HTTP/2 preface, then a SETTINGS frame header declaring 16 MiB - 1 (over the 16 KiB default)
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(preface.length + 9).put(preface).put(new byte[] {(byte) 0xff, (byte) 0xff,
            (byte) 0xff, 4, 0, 0, 0, 0, 0}).array();
      }
      default -> throw new IllegalArgumentException(framework);
    }
  }

  /**
   * {@code connections} connections from {@code threads} threads; each writes {@code bytes}, half-closes,
   * and waits up to 2 s for the server to close it, then resets it (no TIME_WAIT left behind).
   */
  static Outcome connections(InetSocketAddress target, int connections, int threads, byte[] bytes) throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          while (next.getAndIncrement() < connections) {
            if (oneConnection(target, bytes)) {
              closed.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    return new Outcome(connections, closed.get(), 0);
  }

  private static boolean oneConnection(InetSocketAddress target, byte[] bytes) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(target, 5_000);
      s.setSoLinger(true, 0);
      s.setSoTimeout((int) READ_WAIT.toMillis());
      try {
        s.getOutputStream().write(bytes);
        s.shutdownOutput();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        while (in.read(buf) >= 0) {
          // the server's answer, if any, until it closes
        }
        return true;
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException reset) {
        return true;
      }
    }
  }

  /**
   * One connection: {@code header}, then up to {@code maxBytes} of filler in 64 KiB writes, until the
   * server closes or resets it (a write fails) or stops reading (a write blocks for 2 s).
   */
  static Outcome hugeFrame(InetSocketAddress target, byte[] header, long maxBytes) throws Exception {
    AtomicLong sent = new AtomicLong();
    boolean closed = false;
    try (Socket s = new Socket()) {
      s.connect(target, 5_000);
      s.setSoLinger(true, 0);
      s.setSoTimeout((int) READ_WAIT.toMillis());
      OutputStream out = s.getOutputStream();
      ExecutorService writer = Executors.newSingleThreadExecutor();
      try {
        out.write(header);
        byte[] chunk = randomBytes(64 * 1024, 7);
        while (sent.get() < maxBytes) {
          Future<?> w = writer.submit(() -> {
            out.write(chunk);
            return null;
          });
          try {
            w.get(READ_WAIT.toMillis(), TimeUnit.MILLISECONDS);
          } catch (java.util.concurrent.TimeoutException blocked) {
            break; // the server no longer reads
          } catch (java.util.concurrent.ExecutionException failed) {
            closed = true;
            break;
          }
          sent.addAndGet(chunk.length);
        }
      } finally {
        writer.shutdownNow();
      }
    } catch (IOException e) {
      closed = true;
    }
    return new Outcome(1, closed ? 1 : 0, sent.get());
  }
}
