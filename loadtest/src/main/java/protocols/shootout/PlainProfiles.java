package protocols.shootout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import protocols.lab.ProfilerAgent;
import protocols.rpc.Errors;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;
import protocols.stats.RequestStats;
import protocols.stats.Summaries;
import protocols.stats.profile.Flames;
import protocols.stats.profile.LevelProfile;
import protocols.stats.profile.ProfileEvent;
import protocols.stats.profile.Profiles;

/**
 * What the plain drivers' JVMs recorded (-Dprofile with -Dplain=true): {@code event}, with
 * {@code profiler} (async-profiler as an agent, or JDK Flight Recorder where its library is not there),
 * into {@code recordings} by {@link ComparisonReport#key}; each of their levels becomes a side beside Gatling's.
 */
record PlainProfiles(ProfileEvent event, String profiler, boolean cpuTime, Map<String, Path> recordings) {
  static final PlainProfiles NONE = new PlainProfiles(null, null, false, Map.of());

  PlainProfiles {
    recordings = Map.copyOf(recordings);
  }

  /** The drivers' recordings of {@code event}, by async-profiler loaded as an agent or else by JDK Flight Recorder. */
  static PlainProfiles of(ProfileEvent event, boolean asyncProfiler, Map<String, Path> recordings) {
    return new PlainProfiles(event, asyncProfiler ? ProfilerAgent.name(null, event) : ProfilerAgent.FLIGHT_RECORDER,
        ProfilerAgent.cpuTime(event, asyncProfiler), recordings);
  }

  /**
   * Gatling's run's {@code profiles} with each plain-driver level's side ({@link LevelProfile.Side#PLAIN})
   * beside the sides of the Gatling level it is the reference of, under that level's name; its flame graph
   * in {@code profiles/} of {@code folder}; {@code plain} the plain drivers' summaries, by
   * {@link ComparisonReport#key}.
   */
  Profiles besideGatling(Profiles profiles, List<String> frameworks, List<InvocationMode> modes,
                         Map<String, Summaries.Summary> plain, Path folder) {
    if (profiles == null || event == null || recordings.isEmpty()) {
      return profiles;
    }
    List<LevelProfile> plainSides = new ArrayList<>();
    List<String> problems = new ArrayList<>(profiles.problems());
    int n = 0;
    for (String framework : frameworks) {
      for (InvocationMode mode : modes) {
        Path jfr = recordings.get(ComparisonReport.key(framework, mode));
        Summaries.Summary p = plain.get(ComparisonReport.key(framework, mode));
        if (jfr == null || p == null) {
          continue;
        }
        Map<String, Double> cpu = p.run() == null || p.run().cpuMicrosPerCall() == null ? Map.of()
            : p.run().cpuMicrosPerCall();
        for (RequestStats r : p.requests()) {
          Level l = r.level();
          if (r.count() == 0 || l == null || !l.measured()) {
            continue;
          }
          String request = Level.closed(framework, l.size(), l.mode()).trial(l.trial()).name();
          String file = String.format(Locale.ROOT, "profiles/plain-%02d.html", ++n);
          try {
            plainSides.add(Flames.side(request, LevelProfile.Side.PLAIN, List.of(jfr), r.startEpochMillis(),
                r.endEpochMillis(), event, profiler, folder, file, cpuTime ? cpu.get(r.name()) : null));
          } catch (IOException | RuntimeException e) {
            problems.add(request + " plain: " + Errors.oneLine(e));
          }
        }
      }
    }
    // Each level's sides together: Gatling's injector and servers, then the plain driver.
    Map<String, List<LevelProfile>> plainOf = new LinkedHashMap<>();
    plainSides.forEach(s -> plainOf.computeIfAbsent(s.request(), k -> new ArrayList<>()).add(s));
    List<LevelProfile> gatling = profiles.levels();
    List<LevelProfile> levels = new ArrayList<>();
    for (int i = 0; i < gatling.size(); i++) {
      String request = gatling.get(i).request();
      levels.add(gatling.get(i));
      if (i + 1 == gatling.size() || !gatling.get(i + 1).request().equals(request)) {
        levels.addAll(plainOf.getOrDefault(request, List.of()));
        plainOf.remove(request);
      }
    }
    plainOf.values().forEach(levels::addAll);
    return new Profiles(profiles.profiler(), levels, problems);
  }
}
