package protocols.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.rpc.Errors;

/**
 * What went wrong with TLS, in one line naming the cause and the parameter that fixes it, read from
 * what the frameworks report: the JDK's and OpenSSL's messages, wrapped as each framework wraps them.
 */
final class TlsErrors {
  private static final Pattern HOST_MISMATCH = Pattern.compile(
      "No (subject alternative names?|subject alternative DNS name|name) matching ([^ ]+ )?(\\S+) found");

  private TlsErrors() {}

  /** The explanation of {@code error}, if it is (or may be) about TLS; {@code tls}: whether the client spoke it. */
  static Optional<String> explain(Throwable error, boolean tls) {
    String all = messages(error);
    String text = all.toLowerCase(Locale.ROOT);
    if (!tls) {
      boolean closed = text.contains("closed") || text.contains("reset") || text.contains("end of stream")
          || text.contains("eof") || timedOut(error);
      return closed ? Optional.of(Errors.rootMessage(Errors.unwrap(error)) + "; if the server speaks TLS, run with"
          + " -Dtls=true (or mutual)") : Optional.empty();
    }
    if (text.contains("hostname or ip address is undefined")) {
      return Optional.of("TLS: the client made its TLS engine without the server's host (Dubbo 3.3.6 does), and"
          + " Netty 4.2 checks the host by default: start the JVM with"
          + " -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE (the lab's pom does)");
    }
    if (text.contains("certificateexpired") || text.contains("certificate expired") || text.contains("notafter")
        || text.contains("validity check failed") || text.contains("certificate_expired")) {
      return Optional.of("TLS: the server's certificate has expired (" + excerpt(all, "NotAfter") + ")");
    }
    Matcher host = HOST_MISMATCH.matcher(all);
    if (host.find()) {
      return Optional.of("TLS: the server's certificate is not for " + host.group(3)
          + " (its subject alternative names do not hold it; -Dtls.serverName names the one it is for)");
    }
    if (text.contains("pkix path") || text.contains("unable to find valid certification path")
        || text.contains("certificate_unknown") || text.contains("unknown_ca") || text.contains("unknown ca")) {
      return Optional.of("TLS: the server's certificate is not signed by a CA this client trusts (-Dtls.ca names"
          + " the CA)");
    }
    if (text.contains("certificate_required") || text.contains("bad_certificate") || text.contains("bad certificate")
        || text.contains("certificate required")) {
      return Optional.of("TLS: the server requires a client certificate signed by a CA it trusts, and this client"
          + " showed none it accepts (-Dtls=mutual; -Dtls.cert and -Dtls.key, or -Dtls.keyStore)");
    }
    if (text.contains("unrecognized ssl message") || text.contains("not_ssl_record") || text.contains("not an ssl")
        || text.contains("wrong_version_number") || text.contains("remote host terminated the handshake")
        || text.contains("ssl handshake") && (text.contains("closed") || text.contains("reset"))
        || text.contains("handshake timed out") || timedOut(error)) {
      return Optional.of("TLS: the server did not complete a TLS handshake: does it speak TLS? (-Dtls=false for a"
          + " plaintext server) (" + Errors.rootMessage(Errors.unwrap(error)) + ")");
    }
    if (text.contains("closed") || text.contains("reset") || text.contains("eof")) {
      return Optional.of("TLS: the server closed the connection (" + Errors.rootMessage(Errors.unwrap(error))
          + "): a plaintext server, or one that requires a client certificate this client does not have"
          + " (-Dtls=mutual)");
    }
    return Optional.empty();
  }

  private static boolean timedOut(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException || t instanceof java.net.SocketTimeoutException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** Every message of the cause chain (and suppressed ones), with the exceptions' class names. */
  private static String messages(Throwable error) {
    List<String> parts = new ArrayList<>();
    List<Throwable> seen = new ArrayList<>();
    collect(error, parts, seen);
    return String.join(" | ", parts);
  }

  private static void collect(Throwable first, List<String> parts, List<Throwable> seen) {
    for (Throwable t = first; t != null && seen.size() < 20; t = t.getCause()) {
      Throwable current = t;
      if (seen.stream().anyMatch(s -> s == current)) {
        return;
      }
      seen.add(t);
      parts.add(t.getClass().getSimpleName() + ": " + t.getMessage());
      for (Throwable s : t.getSuppressed()) {
        collect(s, parts, seen);
      }
    }
  }

  /** "NotAfter: Mon Nov 30 ... 2026", as the JDK says it, or the first words of the messages. */
  private static String excerpt(String all, String key) {
    Matcher m = Pattern.compile(key + ": [^|,)]+").matcher(all);
    return m.find() ? m.group().trim() : "the messages: " + all.substring(0, Math.min(160, all.length()));
  }
}
