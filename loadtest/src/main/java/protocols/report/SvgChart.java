package protocols.report;

import static protocols.stats.Numbers.fmt;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * A line chart as inline SVG, for pages that must open offline: one polyline per series, a legend,
 * and axes that are linear, logarithmic or categorical. Immutable; every report page draws with it.
 */
public final class SvgChart {
  private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
      "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  private static final int WIDTH = 640;
  private static final int HEIGHT = 380;
  private static final int LEFT = 70;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;

  /** A tick on an axis: where (in data units) and what it says. */
  public record Tick(double value, String label) {
  }

  /** An axis: data range, ticks, and how data maps onto it ({@code log10} or not). */
  public record Axis(String label, double min, double max, boolean log, List<Tick> ticks) {

    /** A linear axis from 0 to a round number above {@code max}, with 5 ticks. */
    public static Axis linear(String label, double max) {
      double top = niceCeiling(max);
      List<Tick> ticks = new ArrayList<>();
      for (int i = 0; i <= 5; i++) {
        ticks.add(new Tick(top * i / 5, fmt(top * i / 5, top >= 10 ? 0 : 1)));
      }
      return new Axis(label, 0, top, false, ticks);
    }

    /** A log10 axis over whole decades around [{@code min}, {@code max}], a tick per decade. */
    public static Axis log(String label, double min, double max) {
      double lo = Math.pow(10, Math.floor(Math.log10(Math.max(1, min))));
      double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(lo * 10, max))));
      List<Tick> ticks = new ArrayList<>();
      for (double v = lo; v <= hi * 1.0001; v *= 10) {
        ticks.add(new Tick(v, fmt(v, 0)));
      }
      return new Axis(label, lo, hi, true, ticks);
    }

    /** Categories evenly spaced: category i sits at x = i. */
    public static Axis categories(String label, List<String> names) {
      List<Tick> ticks = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        ticks.add(new Tick(i, names.get(i)));
      }
      return new Axis(label, -0.25, Math.max(0.25, names.size() - 0.75), false, ticks);
    }

    double fraction(double v) {
      DoubleUnaryOperator f = log ? x -> Math.log10(Math.max(x, min)) : x -> x;
      double span = f.applyAsDouble(max) - f.applyAsDouble(min);
      return span <= 0 ? 0.5 : (f.applyAsDouble(v) - f.applyAsDouble(min)) / span;
    }
  }

  /**
   * A series: its label, points as {x, y} pairs in data units (or {x, y, low, high}: drawn with an
   * error bar from low to high), whether it is drawn dashed, and its colour's index (-1: the next in
   * turn), so two lines of one subject can share a colour.
   */
  public record Series(String label, List<double[]> points, boolean dashed, int color) {
    public Series(String label, List<double[]> points, boolean dashed) {
      this(label, points, dashed, -1);
    }
  }

  private final String id;
  private final String title;
  private final Axis x;
  private final Axis y;
  private final List<Series> series;
  private final List<Band> bands;

  private SvgChart(String id, String title, Axis x, Axis y, List<Series> series, List<Band> bands) {
    this.id = id;
    this.title = title;
    this.x = x;
    this.y = y;
    this.series = List.copyOf(series);
    this.bands = List.copyOf(bands);
  }

  public static SvgChart of(String id, String title, Axis x, Axis y) {
    return new SvgChart(id, title, x, y, List.of(), List.of());
  }

  public SvgChart with(Series s) {
    List<Series> all = new ArrayList<>(series);
    all.add(s);
    return new SvgChart(id, title, x, y, all, bands);
  }

  /** A shaded x range, e.g. where a run was not to be trusted. */
  public SvgChart band(double fromX, double toX) {
    return band(fromX, toX, null, DARK_BAND);
  }

  /** A shaded x range named {@code label} (shown on hover, null: none), filled with {@code fill}. */
  public SvgChart band(double fromX, double toX, String label, String fill) {
    List<Band> all = new ArrayList<>(bands);
    all.add(new Band(fromX, toX, label, fill));
    return new SvgChart(id, title, x, y, series, all);
  }

  /** The fills of a band: a dark one, and a light one for its aftermath. */
  public static final String DARK_BAND = "#fde2e2";
  public static final String LIGHT_BAND = "#fef3e6";

  private record Band(double from, double to, String label, String fill) {
  }

  public String render() {
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder h = new StringBuilder(4096);
    h.append("<svg id=\"").append(esc(id)).append("\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(WIDTH).append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
        .append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(esc(title)).append("\">\n")
        .append("<text x=\"").append(WIDTH / 2).append("\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">")
        .append(esc(title)).append("</text>\n");
    for (Band band : bands) {
      double x0 = LEFT + plotW * clamp(x.fraction(band.from()));
      double x1 = LEFT + plotW * clamp(x.fraction(band.to()));
      h.append("<rect class=\"band\" data-from=\"").append(fmt(band.from(), 2)).append("\" data-to=\"")
          .append(fmt(band.to(), 2)).append("\" x=\"").append(fmt(x0, 1)).append("\" y=\"").append(TOP).append("\" width=\"")
          .append(fmt(Math.max(1, x1 - x0), 1)).append("\" height=\"").append(plotH).append("\" fill=\"")
          .append(band.fill()).append('"').append(band.label() == null ? "/>\n"
              : "><title>" + esc(band.label()) + "</title></rect>\n");
    }
    for (Tick t : y.ticks()) {
      double py = TOP + plotH - plotH * y.fraction(t.value());
      h.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + plotW).append("\" y1=\"").append(fmt(py, 1))
          .append("\" y2=\"").append(fmt(py, 1)).append("\" stroke=\"#eee\"/><text x=\"").append(LEFT - 6)
          .append("\" y=\"").append(fmt(py + 4, 1)).append("\" text-anchor=\"end\" font-size=\"11\">")
          .append(esc(t.label())).append("</text>\n");
    }
    for (Tick t : x.ticks()) {
      double px = LEFT + plotW * x.fraction(t.value());
      h.append("<line x1=\"").append(fmt(px, 1)).append("\" x2=\"").append(fmt(px, 1)).append("\" y1=\"").append(TOP)
          .append("\" y2=\"").append(TOP + plotH).append("\" stroke=\"#f4f4f4\"/><text x=\"").append(fmt(px, 1))
          .append("\" y=\"").append(TOP + plotH + 18).append("\" text-anchor=\"middle\" font-size=\"11\">")
          .append(esc(t.label())).append("</text>\n");
    }
    h.append("<text x=\"").append(LEFT + plotW / 2).append("\" y=\"").append(HEIGHT - 10)
        .append("\" text-anchor=\"middle\" font-size=\"12\">").append(esc(x.label())).append("</text>\n")
        .append("<text transform=\"translate(14,").append(TOP + plotH / 2).append(") rotate(-90)\" text-anchor=\"middle\"")
        .append(" font-size=\"12\">").append(esc(y.label())).append("</text>\n")
        .append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(plotW)
        .append("\" height=\"").append(plotH).append("\" fill=\"none\" stroke=\"#999\"/>\n");
    int i = 0;
    for (Series s : series) {
      String color = COLORS[(s.color() >= 0 ? s.color() : i) % COLORS.length];
      String dash = s.dashed() ? " stroke-dasharray=\"6 4\"" : "";
      StringBuilder points = new StringBuilder();
      StringBuilder values = new StringBuilder(); // the data, x:y, for a reader or a test of the page
      for (double[] p : s.points()) {
        values.append(fmt(p[0], 2)).append(':').append(fmt(p[1], 1)).append(' ');
        double px = LEFT + plotW * clamp(x.fraction(p[0]));
        double py = TOP + plotH - plotH * clamp(y.fraction(p[1]));
        points.append(fmt(px, 1)).append(',').append(fmt(py, 1)).append(' ');
        if (p.length >= 4 && Double.isFinite(p[2]) && Double.isFinite(p[3])) {
          double lo = TOP + plotH - plotH * clamp(y.fraction(p[2]));
          double hi = TOP + plotH - plotH * clamp(y.fraction(p[3]));
          h.append("<path class=\"error-bar\" data-low=\"").append(fmt(p[2], 1)).append("\" data-high=\"")
              .append(fmt(p[3], 1)).append("\" d=\"M").append(fmt(px - 4, 1)).append(',').append(fmt(lo, 1))
              .append("h8M").append(fmt(px, 1)).append(',').append(fmt(lo, 1)).append("V").append(fmt(hi, 1))
              .append("M").append(fmt(px - 4, 1)).append(',').append(fmt(hi, 1)).append("h8\" stroke=\"")
              .append(color).append("\" fill=\"none\"><title>").append(esc(s.label())).append(": 95% interval ")
              .append(fmt(p[2], 0)).append(" to ").append(fmt(p[3], 0)).append("</title></path>\n");
        }
        if (s.points().size() <= 12) {
          h.append("<circle cx=\"").append(fmt(px, 1)).append("\" cy=\"").append(fmt(py, 1)).append("\" r=\"3\" fill=\"")
              .append(color).append("\"><title>").append(esc(s.label())).append(": ").append(fmt(p[1], 0))
              .append("</title></circle>\n");
        }
      }
      h.append("<polyline class=\"series\" data-series=\"").append(esc(s.label())).append("\" data-values=\"")
          .append(values.toString().trim()).append("\" fill=\"none\" stroke=\"")
          .append(color).append("\" stroke-width=\"2\"").append(dash).append(" points=\"")
          .append(points.toString().trim()).append("\"/>\n");
      int ly = TOP + 10 + i * 18;
      h.append("<line x1=\"").append(LEFT + plotW + 12).append("\" x2=\"").append(LEFT + plotW + 32).append("\" y1=\"")
          .append(ly).append("\" y2=\"").append(ly).append("\" stroke=\"").append(color).append("\" stroke-width=\"2\"")
          .append(dash).append("/><text x=\"").append(LEFT + plotW + 36).append("\" y=\"").append(ly + 4)
          .append("\" font-size=\"12\">").append(esc(s.label())).append("</text>\n");
      i++;
    }
    h.append("</svg>\n");
    return h.toString();
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(1, v));
  }

  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
