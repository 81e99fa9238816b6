package protocols.stats;

/**
 * One streaming request's per-message figures over its OK streams, as the summary holds them (µs):
 * messages per second are over the span from its first stream's start to its last stream's end. For
 * paced streams ({@code perSecond}), {@code pacedSends} messages went out {@code sendLag*} µs after they
 * were due, and round trips count from the due time; both 0 for streams sent as fast as allowed.
 */
public record StreamStats(String name, long streams, long messagesSent, long messagesReceived, double sentPerSecond,
                          double receivedPerSecond, long firstMessageP50, long firstMessageP99, long gapP50,
                          long gapP99, long gapMax, long roundTrips, long roundTripP50, long roundTripP99,
                          long roundTripP999, long roundTripMax, long pacedSends, long sendLagP50,
                          long sendLagP99, long sendLagMax) {
}
