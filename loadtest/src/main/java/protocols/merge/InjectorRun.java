package protocols.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import protocols.core.Errors;
import protocols.core.LatencyRecorder;
import protocols.core.LatencyRecorder.RequestStats;
import protocols.core.RunAnalysis;

/**
 * One injector's run as its {@code rpc-summary.json} recorded it: who ran it, when, with which
 * settings, and per request name the exact HdrHistograms and 1-second windows a merge needs.
 */
public record InjectorRun(Path folder, int index, int count, String host, Long startAtEpochMillis,
                          boolean interrupted, Map<String, Object> settings, List<Map<String, Object>> protocols,
                          List<RequestStats> requests, List<RunAnalysis.Warning> warnings) {

  /**
   * Reads the run in {@code path}: a Gatling run folder holding {@code rpc-summary.json}, or a folder
   * holding exactly one such run folder (an injector's results folder).
   *
   * @throws IllegalArgumentException with one line saying what is wrong
   */
  public static InjectorRun read(Path path) {
    Path folder = runFolder(path);
    Path file = folder.resolve(LatencyRecorder.SUMMARY_FILE);
    ObjectMapper mapper = new ObjectMapper();
    JsonNode root;
    try {
      root = mapper.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + Errors.oneLine(e));
    }
    JsonNode run = root.path("run");
    JsonNode injector = run.path("injector");
    if (!root.has("requests") || run.path("startedAtEpochMillis").isMissingNode()) {
      throw new IllegalArgumentException(file + " has no injector identity or start time: it was written before"
          + " runs could be merged, or is not an rpc-summary.json");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> settings = mapper.convertValue(run.path("settings"), Map.class);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> protocols = mapper.convertValue(run.path("protocols"), List.class);
    List<RequestStats> requests = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.get("requests").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      try {
        requests.add(request(e.getKey(), e.getValue()));
      } catch (RuntimeException bad) {
        throw new IllegalArgumentException(file + ", request '" + e.getKey() + "': " + Errors.oneLine(bad));
      }
    }
    List<RunAnalysis.Warning> warnings = new ArrayList<>();
    for (JsonNode w : root.path("warnings")) {
      warnings.add(new RunAnalysis.Warning(w.path("request").asText(), w.path("kind").asText(),
          w.path("message").asText()));
    }
    return new InjectorRun(folder, injector.path("index").asInt(0), injector.path("count").asInt(1),
        injector.path("host").asText("unknown"),
        injector.has("startAtEpochMillis") ? injector.get("startAtEpochMillis").asLong() : null,
        run.path("interrupted").asBoolean(false), settings == null ? Map.of() : settings,
        protocols == null ? List.of() : protocols, requests, warnings);
  }

  private static Path runFolder(Path path) {
    if (Files.isRegularFile(path.resolve(LatencyRecorder.SUMMARY_FILE))) {
      return path;
    }
    if (!Files.isDirectory(path)) {
      throw new IllegalArgumentException("no run folder at " + path);
    }
    List<Path> runs;
    try (Stream<Path> children = Files.list(path)) {
      runs = children.filter(p -> Files.isRegularFile(p.resolve(LatencyRecorder.SUMMARY_FILE))).sorted().toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list " + path + ": " + Errors.oneLine(e));
    }
    if (runs.size() != 1) {
      throw new IllegalArgumentException(path + " holds " + (runs.isEmpty() ? "no run with an "
          + LatencyRecorder.SUMMARY_FILE : runs.size() + " runs (" + runs.stream().map(p -> p.getFileName().toString())
          .toList() + "): name one"));
    }
    return runs.get(0);
  }

  private static RequestStats request(String name, JsonNode r) {
    long count = r.path("count").asLong();
    long ko = r.path("ko").asLong();
    Map<String, Long> reasons = new LinkedHashMap<>();
    r.path("koReasons").fields().forEachRemaining(e -> reasons.put(e.getKey(), e.getValue().asLong()));
    LatencyRecorder.Open open = null;
    JsonNode o = r.get("open");
    if (o != null) {
      open = LatencyRecorder.Open.of(o.path("offeredPerSecond").asDouble(), o.path("maxInFlight").asInt(),
          o.path("dropped").asLong(), o.path("unsent").asLong(0), o.path("unsentReason").asText(null),
          LatencyRecorder.decode(text(o, "responseHistogram")),
          LatencyRecorder.decode(text(o, "sendLagHistogram")));
    }
    long start = r.path("startEpochMillis").asLong();
    long end = r.path("endEpochMillis").asLong();
    long sendEnd = r.path("sendEndEpochMillis").asLong(end); // written before the sending span: to the last reply
    return RequestStats.of(name, count, ko, r.path("durationSeconds").asDouble(), r.path("throughput").asDouble(),
        r.path("okThroughput").asDouble(), LatencyRecorder.decode(text(r, "histogram")), reasons,
        longs(r.path("okPerSecond")), longs(r.path("koPerSecond")), longs(r.path("p50PerSecond")),
        longs(r.path("p99PerSecond")), start * 1_000_000L, sendEnd * 1_000_000L, end * 1_000_000L, start, sendEnd,
        end, open);
  }

  private static String text(JsonNode parent, String field) {
    return Optional.ofNullable(parent.get(field)).filter(JsonNode::isTextual).map(JsonNode::asText)
        .orElseThrow(() -> new IllegalArgumentException("no " + field + " (written before runs could be merged)"));
  }

  private static long[] longs(JsonNode array) {
    long[] out = new long[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asLong();
    }
    return out;
  }

  /** {@code injector 0/2 (host)}. */
  public String label() {
    return "injector " + index + "/" + count + " (" + host + ")";
  }

  public Optional<RequestStats> request(String name) {
    return requests.stream().filter(r -> r.name().equals(name)).findFirst();
  }
}
