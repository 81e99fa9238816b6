package protocols.report;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.extension.AbstractExtension;
import io.pebbletemplates.pebble.extension.Filter;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.EvaluationContext;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import protocols.stats.Numbers;

/**
 * The report pages, from Pebble templates ({@code templates/*.peb}, one per page, sharing
 * {@code layout.peb}): every value is escaped unless a template says {@code raw} (the inline SVG
 * charts, which escape their own text), so no request name can break a page. The pages load nothing
 * from the network and run no script.
 */
public final class Pages {
  private static final PebbleEngine ENGINE = new PebbleEngine.Builder()
      .loader(loader())
      .extension(new Figures())
      .strictVariables(true)
      .build();

  private Pages() {}

  private static ClasspathLoader loader() {
    ClasspathLoader loader = new ClasspathLoader(Pages.class.getClassLoader());
    loader.setPrefix("templates/");
    loader.setSuffix(".peb");
    return loader;
  }

  /** The page {@code template} of {@code model}. */
  public static String render(String template, Map<String, Object> model) {
    PebbleTemplate t = ENGINE.getTemplate(template);
    StringWriter out = new StringWriter(65_536);
    try {
      t.evaluate(out, model);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** When a page was generated, for its reader. */
  public static String now() {
    return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  /**
   * {@code fmt(n)}: a number with n decimals; {@code pct}: a share as a whole percentage; {@code
   * interval(n)}: an interval's middle and bounds ({@link protocols.stats.Interval#withBounds}), empty for null.
   */
  private static final class Figures extends AbstractExtension {
    @Override
    public Map<String, Filter> getFilters() {
      return Map.of(
          "fmt", withDigits((input, digits) -> Numbers.fmt(((Number) input).doubleValue(), digits)),
          "interval", withDigits((input, digits) -> ((protocols.stats.Interval) input).withBounds(digits)),
          "pct", new Filter() {
            @Override
            public List<String> getArgumentNames() {
              return List.of();
            }

            @Override
            public Object apply(Object input, Map<String, Object> args, PebbleTemplate self,
                                EvaluationContext context, int line) {
              return input == null ? "" : Numbers.pct(((Number) input).doubleValue());
            }
          });
    }

    /** A filter of one argument, {@code digits}: empty for null. */
    private static Filter withDigits(java.util.function.BiFunction<Object, Integer, String> format) {
      return new Filter() {
        @Override
        public List<String> getArgumentNames() {
          return List.of("digits");
        }

        @Override
        public Object apply(Object input, Map<String, Object> args, PebbleTemplate self, EvaluationContext context,
                            int line) {
          return input == null ? "" : format.apply(input, ((Number) args.get("digits")).intValue());
        }
      };
    }
  }
}
