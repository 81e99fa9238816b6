package protocols.stats;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import protocols.rpc.Errors;

/** What the summary does with an HdrHistogram: its percentiles, its spectrum, its base64 encoding. */
public final class Histograms {
  /**
   * The spectrum's steps: HdrHistogram's own percentile iteration, this many steps each time the
   * distance to 100% halves (its percentile distribution's default), so the tail gets as many points
   * as the body.
   */
  static final int SPECTRUM_TICKS_PER_HALF_DISTANCE = 5;
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

  /** The latency spectrum, from HdrHistogram's percentile iteration: percentile → µs, to the maximum at 100%. */
  public static List<SpectrumPoint> spectrum(Histogram h) {
    List<SpectrumPoint> out = new ArrayList<>();
    if (h.getTotalCount() > 0) {
      for (HistogramIterationValue v : h.percentiles(SPECTRUM_TICKS_PER_HALF_DISTANCE)) {
        out.add(new SpectrumPoint(v.getPercentileLevelIteratedTo(), v.getValueIteratedTo()));
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
