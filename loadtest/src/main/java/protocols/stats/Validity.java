package protocols.stats;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What the summary says of a level's trustworthiness: where the CPU went (shares of the machine,
 * null: not measured; {@code cpuServers} the level's own servers, {@code cpuOtherServers} the lab's
 * others, idle or serving another level), how steady its 1-second windows were, for a rate level its per-second p50 and
 * its saturation verdict, and why it was not judged (null: it was), e.g. a fault window.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Validity(boolean warmup, Saturation saturation, Double cpuInjector, Double cpuServers, Double cpuRest,
                       Double cpuIdle, int fullWindows, double windowSpread, double windowTrend, Double p50WindowSpread,
                       Double p50WindowTrend, String notJudged, Double cpuOtherServers) {
}
