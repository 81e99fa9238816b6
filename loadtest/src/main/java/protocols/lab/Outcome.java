package protocols.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a run ended, for a CI: {@code ./mvnw gatling:test} exits 1 whatever failed (the Maven plugin folds
 * Gatling's own statuses), so the run's last console line is {@code RESULT: <id>: <detail>} and
 * rpc-summary.json gets {@code "outcome": "<id>"} and {@code "outcomeDetail"}. No RESULT line at all: the
 * run never started (the simulation did not compile, Maven or Gatling failed before the lab's observer).
 */
public enum Outcome {
  /** Every assertion and every verdict of the lab passed. */
  OK("ok"),
  /** One or more of Gatling's assertions failed (as Gatling judged them in its report). */
  ASSERTIONS_FAILED("assertions-failed"),
  /** A verdict of the lab's failed: a gate, too many KO, a level that measured nothing. */
  VERDICT_FAILED("verdict-failed"),
  /** Something of the lab's broke (a report or a gate could not be written): the verdict is unknown. */
  CRASHED("crashed"),
  /** Stopped before its end (SIGTERM, Ctrl-C): its figures cover what it ran. */
  INTERRUPTED("interrupted"),
  /** Bad input, or a server that did not start: no load was sent. */
  NOT_STARTED("not-started");

  private static final Pattern ASSERTION_ROW = Pattern.compile(
      "<tr>\\s*<td class=\"error-col-1[^\"]*\">\\s*([^<]*?)\\s*<span[^>]*>[^<]*</span>\\s*</td>\\s*"
          + "<td class=\"error-col-2[^\"]*\">\\s*(OK|KO)\\s*</td>");

  private final String id;

  Outcome(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /** An outcome with its detail: what failed, or what passed. */
  public record Ended(Outcome outcome, String detail) {
    /** The console's last line. */
    public String line() {
      return "RESULT: " + outcome.id + ": " + detail;
    }
  }

  /** Gatling's assertions as its report judged them: how many, and the text of those that failed. */
  public record Assertions(int total, List<String> failed) {
  }

  /**
   * The assertions table of Gatling's own report ({@code index.html} in the run's folder, written before
   * the JVM's exit), or empty when it has none (a simulation without assertions, or run with {@code -nr}).
   */
  static Optional<Assertions> gatlingAssertions(Path runFolder) throws IOException {
    Path index = runFolder.resolve("index.html");
    if (!Files.exists(index)) {
      return Optional.empty();
    }
    String html = Files.readString(index, StandardCharsets.UTF_8);
    int table = html.indexOf("id=\"container_assertions\"");
    if (table < 0) {
      return Optional.empty();
    }
    Matcher m = ASSERTION_ROW.matcher(html.substring(table, html.indexOf("</table>", table)));
    int total = 0;
    List<String> failed = new ArrayList<>();
    while (m.find()) {
      total++;
      if (m.group(2).equals("KO")) {
        failed.add(m.group(1).replaceAll("\\s+", " ").replace("&lt;", "<").replace("&gt;", ">")
            .replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&"));
      }
    }
    return total == 0 ? Optional.empty() : Optional.of(new Assertions(total, failed));
  }

  /** The outcome of a run that ended (not interrupted), with its detail. */
  static Ended of(int labStatus, Optional<Assertions> assertions, List<String> labReasons) {
    List<String> parts = new ArrayList<>();
    assertions.ifPresent(a -> parts.add(a.failed().isEmpty()
        ? "assertions passed (" + a.total() + " of " + a.total() + ")"
        : "assertions failed (" + a.failed().size() + " of " + a.total() + "): " + String.join("; ", a.failed())));
    parts.addAll(labReasons);
    String detail = parts.isEmpty() ? "no assertion, every verdict passed" : String.join("; ", parts);
    if (labStatus == ExitStatus.INTERNAL_ERROR) {
      return new Ended(CRASHED, detail);
    }
    if (assertions.isPresent() && !assertions.get().failed().isEmpty()) {
      return new Ended(ASSERTIONS_FAILED, detail);
    }
    return new Ended(labStatus == ExitStatus.FAILED ? VERDICT_FAILED : OK, detail);
  }
}
