package protocols.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
                    String variantLabel) {
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

    /** The variant over the baseline: below 1 is what the variant costs; null when the baseline measured nothing. */
    @JsonProperty
    public Double variantVsBaseline() {
      return baseline.throughput() > 0 ? variant.throughput() / baseline.throughput() : null;
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

  /** Each pair's closed levels that both ways reached, in the rows' order. */
  public static List<Row> rows(List<TwoWays> pairs, List<Comparison.Row> rows) {
    List<Row> out = new ArrayList<>();
    for (TwoWays pair : pairs) {
      for (Comparison.Row base : rows) {
        if (base.level().framework().equals(pair.baseline())) {
          rows.stream().filter(r -> r.level().framework().equals(pair.variant())
                  && r.level().mode() == base.level().mode() && r.clients() == base.clients()).findFirst()
              .ifPresent(v -> out.add(new Row(base, v, pair.contrast(), pair.variantLabel())));
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
        + " the server)%n%-9s %-10s %-8s %7s %9s %9s %7s %9s %9s %9s %9s %7s %7s %7s %7s%n", contrast.heading,
        "framework", var, "mode", "clients", base + "/s", var + "/s", var + "/" + base,
        "p50 " + base, "p50 " + var, "p99 " + base, "p99 " + var, "inj " + base, "inj " + var, "srv " + base,
        "srv " + var));
    for (Row r : rows) {
      if (r.contrast() == contrast) {
        sb.append(String.format(Locale.ROOT, "%-9s %-10s %-8s %7d %9.0f %9.0f %7s %9d %9d %9d %9d %7s %7s %7s %7s%n",
            r.framework(), r.variantLabel(), r.mode(), r.clients(), r.baselineThroughput(), r.variantThroughput(),
            Comparison.optional(r.variantVsBaseline(), 2), r.baselineP50(), r.variantP50(), r.baselineP99(),
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
