package protocols.stats;

/** One validity warning: which request (level), what kind, and the sentence a reader sees. */
public record Warning(String request, String kind, String message) {
}
