package protocols.stats;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;
import protocols.rpc.Errors;

/** What the summary does with an HdrHistogram: its percentiles, its spectrum, its base64 encoding. */
public final class Histograms {
  /** The percentiles of the spectrum, HdrHistogram style: ever closer to 100. */
  static final double[] SPECTRUM = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96.875, 97.5, 98.4375,
      99, 99.2188, 99.5, 99.6094, 99.75, 99.8047, 99.9, 99.9023, 99.95, 99.9512, 99.975, 99.99, 99.995, 99.999, 100};
  private static final long EPOCH_MILLIS_AT_NANO_ZERO = System.currentTimeMillis() - System.nanoTime() / 1_000_000L;

  private Histograms() {}

  /** The value at {@code p} percent; 0 for an empty histogram. */
  public static long percentile(Histogram h, double p) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p);
  }

  /** The mean; 0 for an empty histogram. */
  public static double mean(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getMean();
  }

  /** The largest value; 0 for an empty histogram. */
  public static long max(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getMaxValue();
  }

  /** The latency at each of {@link #SPECTRUM}'s percentiles, from HdrHistogram's own percentile lookup. */
  public static List<SpectrumPoint> spectrum(Histogram h) {
    List<SpectrumPoint> out = new ArrayList<>();
    if (h.getTotalCount() > 0) {
      for (double p : SPECTRUM) {
        out.add(new SpectrumPoint(p, p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p)));
      }
    }
    return out;
  }

  /** The histogram as the summary holds it: base64 of its compressed encoding (exact, mergeable). */
  public static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  /** An HdrHistogram from its base64 compressed encoding, as the summary holds it. */
  public static Histogram decode(String encoded) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
    } catch (java.util.zip.DataFormatException | RuntimeException e) {
      throw new IllegalArgumentException("undecodable histogram: " + Errors.oneLine(e));
    }
  }

  /** The wall-clock time of a {@link System#nanoTime} reading, for comparing runs of several JVMs. */
  public static long epochMillis(long nanos) {
    return EPOCH_MILLIS_AT_NANO_ZERO + Math.floorDiv(nanos, 1_000_000L);
  }
}
