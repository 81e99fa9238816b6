package protocols.core;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What the report pages share: escaping, number format, the page frame, key-value tables and warnings. */
public final class Html {
  private Html() {}

  private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
      + "table{border-collapse:collapse;margin:1em 0}"
      + "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f3f3f3}"
      + "td.t{text-align:left}td.n{text-align:left;white-space:nowrap}caption{text-align:left;font-weight:bold;margin-bottom:.3em}"
      + ".warn{color:#b00;font-weight:bold}svg{background:#fff;border:1px solid #ddd;margin:1em 1em 0 0}"
      + "#warnings{border:2px solid #b00;background:#fff5f5;padding:.5em 1em;margin:1em 0}"
      + "#warnings li{margin:.2em 0}#no-warnings{border:2px solid #2a2;background:#f4fff4;padding:.5em 1em}"
      + "tr.flagged td{background:#fff0f0}.muted{color:#777}";

  /** The start of a self-contained page: no scripts, fonts or styles from the network. */
  public static StringBuilder page(String title) {
    StringBuilder h = new StringBuilder(65_536);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>").append(esc(title))
        .append("</title>\n<style>").append(STYLE).append("</style></head><body>\n<h1>").append(esc(title))
        .append("</h1>\n");
    return h;
  }

  /**
   * The validity warnings box: what a reader must know before believing the figures below it, and
   * what could not be checked ({@code cpuNotSampled}: why the machine's other work was not measured).
   */
  public static void warnings(StringBuilder h, List<RunAnalysis.Warning> warnings, Optional<String> cpuNotSampled) {
    cpuNotSampled.ifPresent(why -> h.append("<p id=\"not-checked\" class=\"warn\">Not checked: other work on the ")
        .append("machine (CPU shares not measured: ").append(esc(why)).append(").</p>\n"));
    if (warnings.isEmpty()) {
      h.append("<p id=\"no-warnings\">No validity warnings: no KO, every measured level at steady state")
          .append(cpuNotSampled.isPresent() ? " (other work on the machine not checked, above)"
              : ", and no other work on the machine above the threshold").append(".</p>\n");
      return;
    }
    h.append("<div id=\"warnings\"><strong>").append(warnings.size())
        .append(warnings.size() == 1 ? " validity warning" : " validity warnings")
        .append(": read these before the figures.</strong>\n<ul>\n");
    for (RunAnalysis.Warning w : warnings) {
      h.append("<li class=\"warning\" data-kind=\"").append(esc(w.kind())).append("\" data-request=\"")
          .append(esc(w.request())).append("\"><strong>").append(esc(w.request())).append("</strong>: ")
          .append(esc(w.message())).append("</li>\n");
    }
    h.append("</ul></div>\n");
  }

  public static void keyValues(StringBuilder h, String caption, Map<String, ?> values) {
    h.append("<table class=\"kv\"><caption>").append(esc(caption)).append("</caption>\n");
    values.forEach((k, v) -> h.append("<tr><td class=\"t\">").append(esc(k)).append("</td><td class=\"t\">")
        .append(esc(String.valueOf(v))).append("</td></tr>\n"));
    h.append("</table>\n");
  }

  public static String now() {
    return OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  public static String fmt(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  public static String pct(double share) {
    return fmt(share * 100, 0) + "%";
  }

  public static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
