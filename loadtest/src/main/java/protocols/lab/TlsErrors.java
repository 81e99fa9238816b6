package protocols.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import contract.tls.TlsFiles;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import protocols.rpc.Errors;
import protocols.rpc.HostPort;
import protocols.rpc.Tls;

/**
 * What went wrong with TLS, in one line naming the cause and the parameter that fixes it, read from
 * what the frameworks report: the JDK's and OpenSSL's messages, wrapped as each framework wraps them.
 */
final class TlsErrors {
  /** The JDK's: "No subject alternative names matching IP address 127.0.0.1 found", "No name matching x found". */
  private static final Pattern HOST_MISMATCH = Pattern.compile("No [A-Za-z ]*matching (?:IP address )?(\\S+) found");
  /** Dubbo's client URL in its messages: a screenful of parameters. */
  private static final String DUBBO_URL = "\\(url: [^)]*\\)";
  /** The generic explanation, when the framework's error says no more than a closed connection. */
  private static final String CLOSED = "TLS: the server closed the connection";

  private TlsErrors() {}

  /** The explanation of {@code error} of a client that spoke TLS, if it is (or may be) about TLS. */
  static Optional<String> explain(Throwable error) {
    String all = messages(error);
    String text = all.toLowerCase(Locale.ROOT);
    if (text.contains("hostname or ip address is undefined")) {
      return Optional.of("TLS: the client made its TLS engine without the server's host (Dubbo 3.3.6 does), and"
          + " Netty 4.2 checks the host by default: the JVM needs"
          + " -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE before its first TLS client (the lab"
          + " sets it in runs that use Dubbo's TLS)");
    }
    if (text.contains("certificateexpired") || text.contains("certificate expired") || text.contains("notafter")
        || text.contains("validity check failed") || text.contains("certificate_expired")) {
      return Optional.of("TLS: the server's certificate has expired (" + excerpt(all, "NotAfter") + ")");
    }
    Matcher host = HOST_MISMATCH.matcher(all);
    if (host.find()) {
      return Optional.of("TLS: the server's certificate is not for " + host.group(1)
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
    if (text.contains("closed") || text.contains("reset") || text.contains("eof") || text.contains("inactive")) {
      return Optional.of(CLOSED + " (" + Errors.rootMessage(Errors.unwrap(error))
          + "): a plaintext server, or one that requires a client certificate this client does not have"
          + " (-Dtls=mutual)");
    }
    return Optional.empty();
  }

  /** What a plaintext client adds to its error: anything but a refused connection may be a TLS server's doing. */
  static String plaintextHint(Throwable error) {
    return messages(error).toLowerCase(Locale.ROOT).contains("refused") ? ""
        : "; if the server speaks TLS, run with -Dtls=true (or mutual)";
  }

  /** {@code message} without Dubbo's client URL (a screenful of parameters). */
  static String withoutUrl(String message) {
    return message.replaceAll(DUBBO_URL, "");
  }

  /**
   * The explanation of {@code error} from a framework that speaks TLS to {@code target} as {@code tls}
   * says; where the framework's own error names no cause (Triple's client reports a TLS failure as a
   * connection preface timeout), a handshake of the lab's own (the JDK's, reading the server's first
   * bytes, which carry a refusal of the client's certificate) finds it.
   */
  static Optional<String> explain(Throwable error, HostPort target, Tls tls, boolean checkName) {
    Optional<String> said = explain(error);
    if (said.isPresent() && !said.get().startsWith(CLOSED)) {
      return said;
    }
    return diagnose(target, tls, checkName).map(found -> found + " (found by a handshake of the lab's own; the"
        + " client said: " + Errors.rootMessage(Errors.unwrap(error)).lines().findFirst().orElse("")
        .replaceAll(DUBBO_URL, "") + ")").or(() -> said);
  }

  /** What a JSSE handshake with {@code tls} to {@code target} fails on, if it fails. */
  static Optional<String> diagnose(HostPort target, Tls tls, boolean checkName) {
    try (Socket plain = new Socket()) {
      plain.connect(new InetSocketAddress(target.host(), target.port()), 3_000);
      SSLContext context = TlsFiles.context(tls.identity().orElse(null), tls.trusted().orElse(null));
      try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain,
          tls.serverName().orElse(target.host()), target.port(), false)) {
        if (checkName) {
          SSLParameters parameters = socket.getSSLParameters();
          parameters.setEndpointIdentificationAlgorithm("HTTPS");
          socket.setSSLParameters(parameters);
        }
        socket.setSoTimeout(1_000);
        socket.startHandshake();
        try {
          socket.getInputStream().read(); // a refused client certificate (TLS 1.3) arrives as the first record
        } catch (java.net.SocketTimeoutException e) {
          return Optional.empty(); // the handshake holds: the cause is elsewhere
        }
        return Optional.empty();
      }
    } catch (IOException | RuntimeException e) {
      return explain(e).filter(found -> !found.startsWith(CLOSED));
    }
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
    Matcher m = Pattern.compile(key + ": [^|,)\\r\\n]+").matcher(all);
    return m.find() ? m.group().trim() : "the messages: " + all.substring(0, Math.min(160, all.length()));
  }
}
