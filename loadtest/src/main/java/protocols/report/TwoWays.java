package protocols.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import protocols.stats.Interval;
import protocols.stats.Verdict;

/**
 * A framework run two ways in one shootout, against the same levels: directly and through its registry
 * ({@code -Ddiscovery}), or in plaintext and over TLS ({@code -Dtls=false,true}). It names the two runs,
 * says what the variant is (the registry's scheme, the TLS mode's label) and gives each run's time to
 * its first OK call (a fresh client's start, discovery or handshake, and connection).
 */
public record TwoWays(Contrast contrast, String baseline, String variant, String variantLabel,
                      long baselineFirstCallMillis, long variantFirstCallMillis) {

  /** What the two ways differ by, and the words the console's table uses for them. */
  public enum Contrast {
    DISCOVERY("Direct against through the registry", "direct", "dir", "reg"),
    TLS("Plaintext against TLS", "plaintext", "pl", "tls");

    private final String heading;
    private final String baselineWord;
    private final String baselineColumn;
    private final String variantColumn;

    Contrast(String heading, String baselineWord, String baselineColumn, String variantColumn) {
      this.heading = heading;
      this.baselineWord = baselineWord;
      this.baselineColumn = baselineColumn;
      this.variantColumn = variantColumn;
    }

    @JsonValue
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One closed level both ways: what the variant costs at steady state. Throughputs are OK calls/s; CPU
   * per call is µs of the injector's and of the level's own server's CPU time, null where not measured.
   */
  @JsonPropertyOrder({"contrast", "framework", "variantLabel", "mode", "clients"})
  public record Row(@JsonIgnore Comparison.Row baseline, @JsonIgnore Comparison.Row variant, Contrast contrast,
                    String variantLabel, @JsonIgnore Comparison.Pair pair) {
    @JsonProperty
    public String framework() {
      return baseline.framework();
    }

    @JsonProperty
    public String mode() {
      return baseline.mode();
    }

    @JsonProperty
    public int clients() {
      return baseline.clients();
    }

    @JsonProperty
    public double baselineThroughput() {
      return baseline.throughput();
    }

    @JsonProperty
    public double variantThroughput() {
      return variant.throughput();
    }

    /**
     * The variant over the baseline, below 1 what the variant costs: the centre of the pair's interval where
     * the run has one (the same ratio as its pairs table, e.g. over trials the geometric mean of the rounds'
     * ratios), else the ratio of the two medians; null when the baseline measured nothing.
     */
    @JsonProperty
    public Double variantVsBaseline() {
      Interval i = variantVsBaselineInterval();
      if (i != null) {
        return i.mid();
      }
      return baseline.throughput() > 0 ? variant.throughput() / baseline.throughput() : null;
    }

    /**
     * The variant's calls/s over the baseline's with its 95% interval, as the run's pair of the two gives it
     * (paired over trials, or from one trial's 1-second windows: its method says which); null without one.
     */
    @JsonProperty
    public Interval variantVsBaselineInterval() {
      if (pair == null || Double.isNaN(pair.throughputRatio().lo()) || Double.isNaN(pair.throughputRatio().hi())) {
        return null;
      }
      Interval r = pair.throughputRatio();
      return variantIsCandidate() ? r : new Interval(1 / r.hi(), 1 / r.mid(), 1 / r.lo(), r.method());
    }

    /** The word that interval supports for the variant: faster, slower, no difference shown or not judged. */
    @JsonProperty
    public Verdict verdict() {
      if (pair == null) {
        return null;
      }
      Verdict v = pair.throughputVerdict();
      return variantIsCandidate() ? v : v == Verdict.FASTER ? Verdict.SLOWER : v == Verdict.SLOWER ? Verdict.FASTER : v;
    }

    /** Whether the pair has the variant as its candidate (it ran second), not as its baseline. */
    private boolean variantIsCandidate() {
      return pair.candidate().equals(variant.framework());
    }

    @JsonProperty
    public Long baselineP50() {
      return baseline.p50();
    }

    @JsonProperty
    public Long variantP50() {
      return variant.p50();
    }

    @JsonProperty
    public Long baselineP99() {
      return baseline.p99();
    }

    @JsonProperty
    public Long variantP99() {
      return variant.p99();
    }

    @JsonProperty
    public Double baselineInjectorCpuPerCall() {
      return baseline.gatlingCpuPerCall();
    }

    @JsonProperty
    public Double variantInjectorCpuPerCall() {
      return variant.gatlingCpuPerCall();
    }

    @JsonProperty
    public Double baselineServerCpuPerCall() {
      return baseline.serverCpuPerCall();
    }

    @JsonProperty
    public Double variantServerCpuPerCall() {
      return variant.serverCpuPerCall();
    }

    /** The two levels' names: a warning on either flags the row. */
    public List<String> levelNames() {
      return List.of(baseline.level().name(), variant.level().name());
    }
  }

  /**
   * Each pair's closed levels that both ways reached, in the rows' order, each with the run's pair of
   * the two levels ({@code compared}: its ratio's interval and verdict) where there is one.
   */
  public static List<Row> rows(List<TwoWays> pairs, List<Comparison.Row> rows, List<Comparison.Pair> compared) {
    List<Row> out = new ArrayList<>();
    for (TwoWays pair : pairs) {
      for (Comparison.Row base : rows) {
        if (base.level().framework().equals(pair.baseline())) {
          rows.stream().filter(r -> r.level().framework().equals(pair.variant())
                  && r.level().mode() == base.level().mode() && r.clients() == base.clients()).findFirst()
              .ifPresent(v -> out.add(new Row(base, v, pair.contrast(), pair.variantLabel(), compared.stream()
                  .filter(c -> c.clients() == base.clients() && c.mode().equals(base.mode())
                      && Set.of(c.baseline(), c.candidate()).equals(Set.of(pair.baseline(), pair.variant())))
                  .findFirst().orElse(null))));
        }
      }
    }
    return out;
  }

  /** The console's table of one contrast's pairs, or nothing when it has none. */
  public static String table(Contrast contrast, List<TwoWays> pairs, List<Row> rows) {
    List<TwoWays> these = pairs.stream().filter(p -> p.contrast() == contrast).toList();
    if (these.isEmpty()) {
      return "";
    }
    String base = contrast.baselineColumn;
    String var = contrast.variantColumn;
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n%s (µs; CPU per call of the injector and of"
        + " the server; the ratio's 95%% interval and what it supports)%n%-9s %-10s %-8s %7s %9s %9s %7s %-14s %-19s"
        + " %9s %9s %9s %9s %7s %7s %7s %7s%n", contrast.heading,
        "framework", var, "mode", "clients", base + "/s", var + "/s", var + "/" + base, "interval", "verdict",
        "p50 " + base, "p50 " + var, "p99 " + base, "p99 " + var, "inj " + base, "inj " + var, "srv " + base,
        "srv " + var));
    for (Row r : rows) {
      if (r.contrast() == contrast) {
        Interval i = r.variantVsBaselineInterval();
        sb.append(String.format(Locale.ROOT,
            "%-9s %-10s %-8s %7d %9.0f %9.0f %7s %-14s %-19s %9d %9d %9d %9d %7s %7s %7s %7s%n",
            r.framework(), r.variantLabel(), r.mode(), r.clients(), r.baselineThroughput(), r.variantThroughput(),
            Comparison.optional(r.variantVsBaseline(), 2), i == null ? "-" : i.bounds(2),
            r.verdict() == null ? "-" : r.verdict().label(), r.baselineP50(), r.variantP50(), r.baselineP99(),
            r.variantP99(), Comparison.optional(r.baselineInjectorCpuPerCall(), 1),
            Comparison.optional(r.variantInjectorCpuPerCall(), 1), Comparison.optional(r.baselineServerCpuPerCall(), 1),
            Comparison.optional(r.variantServerCpuPerCall(), 1)));
      }
    }
    for (TwoWays p : these) {
      sb.append(String.format(Locale.ROOT, "first OK call of a fresh %s client: %s %d ms, %s %d ms%n", p.baseline(),
          contrast.baselineWord, p.baselineFirstCallMillis(), p.variantLabel(), p.variantFirstCallMillis()));
    }
    return sb.toString();
  }
}
