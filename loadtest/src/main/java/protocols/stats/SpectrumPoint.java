package protocols.stats;

/** One point of the latency spectrum: the latency in µs at or below which {@code percentile}% of OK calls fell. */
public record SpectrumPoint(double percentile, long micros) {
}
