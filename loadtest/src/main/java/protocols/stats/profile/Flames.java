package protocols.stats.profile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

/**
 * A level's slice of JFR recordings (async-profiler's or the JDK's own), through async-profiler's
 * converter: collapsed stacks for the breakdown, a self-contained flame graph page for a reader.
 */
public final class Flames {
  private Flames() {}

  /**
   * The samples of {@code jfrs} between two epoch-millisecond instants, as collapsed stacks, all files
   * together, each led by its thread's frame ({@link Breakdown#withoutThreads} drops them).
   */
  public static String collapsed(List<Path> jfrs, long fromMillis, long toMillis, ProfileEvent event)
      throws IOException {
    StringBuilder all = new StringBuilder();
    for (Path jfr : jfrs) {
      if (!Files.isRegularFile(jfr) || Files.size(jfr) == 0) {
        continue;
      }
      Arguments args = new Arguments();
      args.output = "collapsed";
      args.threads = true;
      args.from = fromMillis;
      args.to = toMillis;
      args.alloc = event == ProfileEvent.ALLOC;
      args.lock = event == ProfileEvent.LOCK;
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (JfrReader reader = new JfrReader(jfr.toString())) {
        JfrToFlame converter = new JfrToFlame(reader, args);
        converter.convert();
        converter.dump(out);
      }
      all.append(out.toString(StandardCharsets.UTF_8));
    }
    return all.toString();
  }

  /**
   * One side of a level: its slice of {@code jfrs} between two epoch-millisecond instants, its flame graph
   * written to {@code flameGraph} (relative to {@code runFolder}) and titled by the request, the side and the
   * profiler, and its breakdown.
   */
  public static LevelProfile side(String request, LevelProfile.Side side, List<Path> jfrs, long fromMillis,
                                  long toMillis, ProfileEvent event, String profiler, Path runFolder, String flameGraph,
                                  Double cpuUsPerCall) throws IOException {
    String collapsed = collapsed(jfrs, fromMillis, toMillis, event);
    flameGraph(Breakdown.withoutThreads(collapsed), request + ": " + side.label() + " (" + profiler + ")",
        runFolder.resolve(flameGraph));
    return LevelProfile.of(request, side, flameGraph, Breakdown.ofCollapsed(collapsed), cpuUsPerCall);
  }

  /** Writes {@code collapsed} as a flame graph page titled {@code title}. */
  public static void flameGraph(String collapsed, String title, Path html) throws IOException {
    Arguments args = new Arguments();
    args.output = "html";
    args.title = title;
    FlameGraph graph = new FlameGraph(args);
    graph.parseCollapsed(new StringReader(collapsed));
    Files.createDirectories(html.toAbsolutePath().getParent());
    try (PrintStream out = new PrintStream(Files.newOutputStream(html), false, StandardCharsets.UTF_8)) {
      graph.dump(out);
    }
  }
}
