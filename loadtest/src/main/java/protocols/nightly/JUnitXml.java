package protocols.nightly;

import java.util.List;

/** The gates as JUnit XML, which CI systems show as test results: a test case per level and gate. */
final class JUnitXml {
  private JUnitXml() {}

  static String render(String suite, List<Nightly.Gate> gates) {
    long failures = gates.stream().filter(g -> !g.passed()).count();
    StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<testsuite name=\"").append(esc(suite)).append("\" tests=\"").append(gates.size())
        .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"0\">\n");
    for (Nightly.Gate g : gates) {
      x.append("  <testcase classname=\"nightly.").append(esc(g.level().framework())).append("\" name=\"")
          .append(esc(g.level().key() + " " + g.name())).append("\">");
      if (g.passed()) {
        x.append("<system-out>").append(esc(g.message())).append("</system-out>");
      } else {
        x.append("<failure message=\"").append(esc(g.message())).append("\" type=\"").append(esc(g.name()))
            .append("\"/>");
      }
      x.append("</testcase>\n");
    }
    return x.append("</testsuite>\n").toString();
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
