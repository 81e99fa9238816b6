package protocols.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * What a summary says about its run, beside the figures: who ran it, when, with which settings, what
 * its warm-ups and faults did; a merge adds its injectors, a plain-driver run its driver. A field a
 * run has nothing for is null and left out of the file.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunInfo(List<Map<String, Object>> protocols, Boolean interrupted, Injector injector, String startedAt,
                      Long startedAtEpochMillis, String gatlingRun, Map<String, String> settings,
                      List<WarmupOutcome> warmups, List<FaultOutcome> faults, Boolean merged,
                      List<MergedInjector> injectors, Map<String, List<InjectorLevel>> perInjector, String driver,
                      String framework, String mode, String target, Boolean complete, WarmupOutcome warmup,
                      Map<String, Double> cpuMicrosPerCall, List<WarmupOutcome> settles) {
  /**
   * A protocol table's key for what each of its framework's providers served, by their own count: a
   * list of {@code {provider, address, served}}.
   */
  public static final String SERVED_BY_PROVIDER = "servedByProvider";


  /** A run of this JVM: its protocols, whether it was interrupted, who ran it, what its warm-ups and faults did. */
  public static RunInfo ofRun(List<Map<String, Object>> protocols, boolean interrupted, Injector injector,
                              long startedAtEpochMillis, String gatlingRun, Map<String, String> settings,
                              List<WarmupOutcome> warmups, List<FaultOutcome> faults) {
    return ofRun(protocols, interrupted, injector, startedAtEpochMillis, gatlingRun, settings, warmups, faults,
        List.of());
  }

  /** As above, with what each level's settle (and the warm-up's rehearsal of a level start) did. */
  public static RunInfo ofRun(List<Map<String, Object>> protocols, boolean interrupted, Injector injector,
                              long startedAtEpochMillis, String gatlingRun, Map<String, String> settings,
                              List<WarmupOutcome> warmups, List<FaultOutcome> faults, List<WarmupOutcome> settles) {
    return new RunInfo(protocols, interrupted, injector, java.time.Instant.ofEpochMilli(startedAtEpochMillis).toString(),
        startedAtEpochMillis, gatlingRun, settings, warmups, faults.isEmpty() ? null : faults, null, null, null, null,
        null, null, null, null, null, null, settles.isEmpty() ? null : settles);
  }

  /**
   * A plain-driver run: its framework, mode and target, whether every level ran whole, its warm-up, its
   * JVM's CPU per call (µs) by request name, and its levels' settles.
   */
  public static RunInfo ofPlainDriver(String framework, String mode, String target, boolean complete,
                                      WarmupOutcome warmup, Map<String, Double> cpuMicrosPerCall,
                                      List<WarmupOutcome> settles) {
    return new RunInfo(null, null, null, null, null, null, null, null, null, null, null, null, "plain", framework,
        mode, target, complete, warmup, cpuMicrosPerCall, settles.isEmpty() ? null : settles);
  }

  /** Which injector of a multi-injector run wrote it, and when its first level was to start. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Injector(int index, int count, String host, Long pid, String startAt, Long startAtEpochMillis) {
    /** The run of one JVM alone. */
    public static final Injector ALONE = new Injector(0, 1, null, null, null, null);
  }

  /**
   * What a warm-up or a level's settle did: its plan, how long it took, whether it got steady (auto
   * only); a settle's request is the level it came before.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record WarmupOutcome(String request, String plan, double seconds, Boolean stable, Integer users,
                              Long usersStarted) {
  }

  /** One injected fault's step: planned and done, in s from the level's start, and its error if it failed. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record FaultEvent(String action, double plannedSeconds, double doneSeconds, String error) {
  }

  /**
   * What a level's faults did (s from the level's start): when the first fault struck and the server was
   * back, the KO and OK calls meanwhile, the first OK after it was back, when throughput was steady
   * again, and whether it recovered within the bound (null: not seen before the level ended); how long
   * calls failed after the first fault (to the end of the last KO that started in the window) and, when
   * the restarted server reports its calls, how long after the restart it served its first.
   */
  public record FaultOutcome(String request, boolean callsApart, List<FaultEvent> events, double faultStartSeconds,
                             Double restoredSeconds, long koDuringFault, long okDuringFault,
                             Long firstOkAfterRestoreMillis, Long steadyAfterRestoreMillis, Boolean recovered,
                             Double levelEndSeconds, Long failedForMillis, Long servedAgainAfterMillis) {
  }

  /** One injector of a merge, with the paths of its own reports from the merged folder. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MergedInjector(int index, int count, String host, String folder, String gatlingReport,
                               String rpcReport, String startAt, boolean interrupted) {
  }

  /** One injector's share of one merged level: what it did alone, and its rate in the common window. */
  public record InjectorLevel(int injector, String host, long count, long ko, double throughput, double okThroughput,
                              long p50, long p99, long max, long dropped, long startOffsetMillis, boolean slow) {
  }
}
