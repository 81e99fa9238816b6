package protocols.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import protocols.rpc.Errors;
import protocols.rpc.SystemProperty;
import protocols.stats.Interval;
import protocols.stats.Summaries;

/**
 * {@code ./mvnw -q compile exec:java@compare -Dbaseline=DIR -Dcandidate=DIR}: two runs' levels, matched
 * by value, each figure's ratio with its 95% interval and verdict, on the console and in
 * {@code compare.json} (beside the candidate's summary, or {@code -Dout}).
 */
public final class CompareCommand {
  /** The file it writes. */
  public static final String FILE = "compare.json";
  /** {@code -DnoiseFloor}'s default: runs of one command on this 2-core machine differ by up to a quarter. */
  public static final double DEFAULT_NOISE_FLOOR = 0.25;

  private CompareCommand() {}

  public static void main(String[] args) {
    try {
      Path baseline = summaryOf("baseline", SystemProperty.get("baseline", args.length > 0 ? args[0] : ""));
      Path candidate = summaryOf("candidate", SystemProperty.get("candidate", args.length > 1 ? args[1] : ""));
      double floor = noiseFloor(SystemProperty.get("noiseFloor", Double.toString(DEFAULT_NOISE_FLOOR)));
      String out = SystemProperty.get("out", "").trim();
      Compare.Result result = Compare.of(read(baseline), read(candidate), floor);
      print(result, System.out);
      Path written = write(result, out.isEmpty() ? candidate.resolveSibling(FILE) : Paths.get(out));
      System.out.println("Written: " + written.toAbsolutePath());
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.err.println("error: could not write the comparison: " + Errors.oneLine(e));
      System.exit(1);
    }
  }

  /** A run's folder or its summary file; one line naming what is wrong. */
  static Path summaryOf(String name, String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException("-D" + name + " is required: a run's folder (its rpc-summary.json), e.g."
          + " -D" + name + "=loadtest/target/gatling/grpcecho-20261203214537762");
    }
    Path p = Paths.get(value.trim());
    Path file = Files.isDirectory(p) ? p.resolve(Summaries.FILE) : p;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("-D" + name + ": no " + Summaries.FILE + " at " + file);
    }
    return file;
  }

  static double noiseFloor(String value) {
    double f;
    try {
      f = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      f = Double.NaN;
    }
    if (!(f >= 0 && f < 10)) {
      throw new IllegalArgumentException("-DnoiseFloor: a fraction from 0 (e.g. 0.25 for 25%), got '" + value + "'");
    }
    return f;
  }

  private static Summaries.Summary read(Path file) {
    try {
      return Summaries.read(file);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(file + " is not a run summary: " + Errors.oneLine(e));
    }
  }

  /** The comparison as the console shows it. */
  public static void print(Compare.Result result, PrintStream out) {
    out.println(String.format(Locale.ROOT, "%-34s %-21s %22s %22s %26s  %s", "level", "figure", "baseline (95%)",
        "candidate (95%)", "candidate/baseline (95%)", "verdict"));
    double widest = 0;
    for (Compare.Row r : result.rows()) {
      out.println(String.format(Locale.ROOT, "%-34s %-21s %22s %22s %26s  %s%s", r.level(), r.figure().label(),
          plusMinus(r.baseline()), plusMinus(r.candidate()), ratio(r.ratio()), r.verdict(),
          r.warned().isEmpty() ? "" : " (warned: " + r.warned() + ")"));
      if (!Double.isNaN(r.ratio().lo())) {
        widest = Math.max(widest, Math.max(r.ratio().hi() / r.ratio().mid() - 1, 1 - r.ratio().lo() / r.ratio().mid()));
      }
    }
    result.unmatched().forEach(u -> out.println("not compared: " + u));
    out.println(String.format(Locale.ROOT, "Resolution: a change is told apart when its interval excludes 1 and it is"
        + " over the noise floor (%.0f%%); the widest interval here is ±%.0f%%. One run's interval is of its own"
        + " seconds, not of another run of it (see docs/comparing-runs.md)",
        result.noiseFloor() * 100, widest * 100));
  }

  private static String plusMinus(Interval i) {
    return Double.isNaN(i.lo()) ? String.format(Locale.ROOT, "%,.0f (no interval)", i.mid())
        : String.format(Locale.ROOT, "%,.0f ± %,.0f", i.mid(), (i.hi() - i.lo()) / 2);
  }

  private static String ratio(Interval i) {
    return i.hasBounds() ? i.withBounds(2) : protocols.stats.Numbers.fmt(i.mid(), 2);
  }

  static Path write(Compare.Result result, Path target) throws IOException {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Compare.Row r : result.rows()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("level", r.level());
      m.put("figure", r.figure().label());
      m.put("baseline", bounds(r.baseline()));
      m.put("candidate", bounds(r.candidate()));
      m.put("ratio", bounds(r.ratio()));
      m.put("verdict", r.verdict());
      m.put("warned", r.warned());
      m.put("ratioInterval", r.ratio().method());
      m.put("interval", r.candidate().method());
      rows.add(m);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("noiseFloor", result.noiseFloor());
    root.put("rows", rows);
    root.put("notCompared", result.unmatched());
    Path parent = target.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), root);
    return target;
  }

  private static Map<String, Object> bounds(Interval i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("value", round(i.mid()));
    m.put("low", Double.isNaN(i.lo()) ? null : round(i.lo()));
    m.put("high", Double.isNaN(i.hi()) ? null : round(i.hi()));
    return m;
  }

  private static double round(double x) {
    return Math.round(x * 10_000) / 10_000.0;
  }
}
