package protocols.nightly;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import protocols.stats.Level;

/** The nights so far: one JSON record a line, oldest first (-Dhistory). */
public final class History {
  private static final ObjectMapper JSON = new ObjectMapper();

  private History() {}

  /** One night: when, which commit, its run folder, whether a gate failed, the machine, and its levels. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Night(String date, String commit, String run, boolean failed, Map<String, Object> machine,
                      List<NightLevel> levels) {
  }

  /**
   * One framework, level and mode of a night. {@code key} is the level's request name, for a reader;
   * a level is found by its framework, clients and mode. {@code windows}, {@code spread} and
   * {@code p99Spread} (its noise) are null in records written before they were kept.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record NightLevel(String key, String framework, int clients, String mode, double callsPerSecond, long p50,
                           long p99, long ko, List<String> warnings, Integer windows, Double spread,
                           Double p99Spread) {
    /** Whether this is {@code level}'s record. */
    public boolean is(Level level) {
      return Objects.equals(framework, level.framework()) && clients == level.size()
          && Objects.equals(mode, level.mode().label());
    }

    static NightLevel of(Nightly.Tonight l) {
      return new NightLevel(l.key(), l.level().framework(), l.level().size(), l.level().mode().label(),
          Math.round(l.callsPerSecond() * 10) / 10.0, l.p50(), l.p99(), l.ko(), l.warnings(), l.windows(),
          Math.round(l.spread() * 1000) / 1000.0, Math.round(l.p99Spread() * 1000) / 1000.0);
    }
  }

  /** The records of {@code file}; none if it does not exist. A line that is not a record is skipped, and said. */
  public static List<Night> read(Path file) throws IOException {
    List<Night> out = new ArrayList<>();
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
        Night night = JSON.readValue(line, Night.class);
        out.add(night.levels() == null ? new Night(night.date(), night.commit(), night.run(), night.failed(),
            night.machine(), List.of()) : night);
      } catch (IOException e) {
        System.err.println("nightly history " + file + ": line " + n + " is not a night's record; skipped");
      }
    }
    return out;
  }

  public static Night night(String date, String commit, Map<String, Object> machine, String run, boolean failed,
                            List<Nightly.Tonight> levels) {
    return new Night(date, commit, run, failed, machine, levels.stream().map(NightLevel::of).toList());
  }

  public static void append(Path file, Night night) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, JSON.writeValueAsString(night) + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** {@code level} in the last {@code last} nights that ran it without KO, oldest first. */
  public static List<NightLevel> comparable(List<Night> nights, Level level, int last) {
    List<NightLevel> out = new ArrayList<>();
    for (Night night : nights) {
      for (NightLevel l : night.levels()) {
        if (l.is(level) && l.ko() == 0) {
          out.add(l);
        }
      }
    }
    return out.subList(Math.max(0, out.size() - last), out.size());
  }

  /** A figure of each of {@code levels} that has it (null: not recorded). */
  public static List<Double> values(List<NightLevel> levels, Function<NightLevel, ? extends Number> figure) {
    return levels.stream().map(figure).filter(Objects::nonNull).map(Number::doubleValue).toList();
  }

  /** The median of a figure over {@code levels}; {@code otherwise} where none has it (older records). */
  public static double median(List<NightLevel> levels, Function<NightLevel, ? extends Number> figure,
                              double otherwise) {
    List<Double> v = values(levels, figure);
    return v.isEmpty() ? otherwise : Regression.median(v);
  }
}
