package protocols.stats;

/**
 * One streaming request's per-message figures over its streams, as the summary holds them (µs): those
 * that failed ({@code failedStreams} of {@code streams}) count the messages they sent and received before
 * they failed; messages per second are over the request's sending span, as its calls/s. For
 * paced streams ({@code perSecond}), {@code pacedSends} messages went out {@code sendLag*} µs after they
 * were due, and round trips count from the due time; both 0 for streams sent as fast as allowed.
 * {@code level} is the streaming shootout's level the request measured; null for another's streams.
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record StreamStats(String name, long streams, long failedStreams, long messagesSent, long messagesReceived, double sentPerSecond,
                          double receivedPerSecond, long firstMessageP50, long firstMessageP99, long gapP50,
                          long gapP99, long gapMax, long roundTrips, long roundTripP50, long roundTripP99,
                          long roundTripP999, long roundTripMax, long pacedSends, long sendLagP50,
                          long sendLagP99, long sendLagMax, StreamLevel level) {
}
