package protocols.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import protocols.stats.RequestStats;

/**
 * Told when a run's summary is written (the shootout's comparison, the nightly gates, the rate levels'
 * KO check): it writes what it adds, and says why the run fails, if it does. Whoever runs the run
 * decides the exit status.
 */
public interface SummaryListener {

  /** Returns the reasons the run fails (none: it does not), each one line. */
  List<String> written(Path folder, List<RequestStats> requests, RunAnalysis analysis, boolean interrupted)
      throws IOException;

  /** The run's profiles (-Dprofile), told before {@link #written}; not told when the run profiled nothing. */
  default void profiled(protocols.stats.profile.Profiles profiles) {
  }

  /** What it writes, for the line that says it could not: e.g. "the comparison report". */
  default String what() {
    return getClass().getSimpleName();
  }
}
