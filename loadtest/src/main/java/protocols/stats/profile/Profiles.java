package protocols.stats.profile;

import java.util.List;

/** A run's profiles: which profiler recorded them, each measured level's sides, and what went wrong. */
public record Profiles(String profiler, List<LevelProfile> levels, List<String> problems) {
}
