package protocols.nightly;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The nights so far: one JSON record a line, oldest first (-Dhistory). */
public final class History {
  private static final ObjectMapper JSON = new ObjectMapper();

  private History() {}

  /** The records of {@code file}; none if it does not exist. A line that is not JSON is skipped, and said. */
  public static List<JsonNode> read(Path file) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    if (!Files.exists(file)) {
      return out;
    }
    int n = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      try {
        out.add(JSON.readTree(line));
      } catch (IOException e) {
        System.err.println("nightly history " + file + ": line " + n + " is not a JSON record; skipped");
      }
    }
    return out;
  }

  public static Map<String, Object> record(String date, String commit, Map<String, Object> machine, String run,
                                           boolean failed, List<Nightly.Level> levels) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("date", date);
    r.put("commit", commit);
    r.put("run", run);
    r.put("failed", failed);
    r.put("machine", machine);
    List<Map<String, Object>> ls = new ArrayList<>();
    for (Nightly.Level l : levels) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", l.key());
      m.put("framework", l.framework());
      m.put("clients", l.clients());
      m.put("mode", l.mode());
      m.put("callsPerSecond", Math.round(l.callsPerSecond() * 10) / 10.0);
      m.put("p50", l.p50());
      m.put("p99", l.p99());
      m.put("ko", l.ko());
      m.put("warnings", l.warnings());
      m.put("windows", l.windows());
      m.put("spread", Math.round(l.spread() * 1000) / 1000.0);
      m.put("p99Spread", Math.round(l.p99Spread() * 1000) / 1000.0);
      ls.add(m);
    }
    r.put("levels", ls);
    return r;
  }

  public static void append(Path file, Map<String, Object> record) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, JSON.writeValueAsString(record) + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** The level {@code key} of the last {@code last} nights that ran it without KO, oldest first. */
  public static List<JsonNode> comparable(List<JsonNode> nights, String key, int last) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode night : nights) {
      for (JsonNode level : night.path("levels")) {
        if (key.equals(level.path("key").asText()) && level.path("ko").asLong() == 0) {
          out.add(level);
        }
      }
    }
    return out.subList(Math.max(0, out.size() - last), out.size());
  }

  /** {@code field} of each of {@code levels} that has it. */
  public static List<Double> values(List<JsonNode> levels, String field) {
    return levels.stream().filter(l -> l.has(field)).map(l -> l.get(field).asDouble()).toList();
  }

  /** The median of {@code field} over {@code levels}; {@code otherwise} where none has it (older records). */
  public static double median(List<JsonNode> levels, String field, double otherwise) {
    List<Double> v = values(levels, field);
    return v.isEmpty() ? otherwise : Regression.median(v);
  }
}
