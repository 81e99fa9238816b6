package protocols.stats;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * An open-model level's own figures, µs: what it was offered, what it dropped at the in-flight cap,
 * what was never sent (a sender that stopped), the response time (from the schedule's due time to the
 * reply, OK calls) and the send lag (due to sent, every sent call). The level's main latency fields
 * stay the service time (sent to reply).
 */
public record OpenStats(double offered, int maxInFlight, long dropped, long unsent, String unsentReason,
                        double responseMean, long responseP50, long responseP90, long responseP99, long responseP999,
                        long responseMax, List<SpectrumPoint> responseSpectrum, String responseHistogram, long lagP50,
                        long lagP99, long lagMax, String lagHistogram) {
  /**
   * The figures of {@code response} (due to reply, every call: OK, failed and timed out) and {@code lag} (due to sent) histograms,
   * µs; {@code unsent} calls were due but never sent because a sender stopped ({@code unsentReason}).
   */
  public static OpenStats of(double offered, int maxInFlight, long dropped, long unsent, String unsentReason,
                             Histogram response, Histogram lag) {
    return new OpenStats(offered, maxInFlight, dropped, unsent, unsentReason, Histograms.mean(response),
        Histograms.percentile(response, 50), Histograms.percentile(response, 90), Histograms.percentile(response, 99),
        Histograms.percentile(response, 99.9), Histograms.max(response), Histograms.spectrum(response),
        Histograms.encode(response), Histograms.percentile(lag, 50), Histograms.percentile(lag, 99),
        Histograms.max(lag), Histograms.encode(lag));
  }

  /** The response times as an HdrHistogram (exact, mergeable). */
  public Histogram decodeResponseHistogram() {
    return Histograms.decode(responseHistogram);
  }

  /** The send lags as an HdrHistogram (exact, mergeable). */
  public Histogram decodeLagHistogram() {
    return Histograms.decode(lagHistogram);
  }
}
