package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import protocols.rpc.HostPort;
import protocols.rpc.RpcSettings;
import protocols.rpc.InvocationMode;
import protocols.load.Warmup;
import protocols.load.Faults;

class LoadParamsTest {

  @Test
  void defaults() {
    LoadParams p = new LoadParams(Map.of()).validate();
    assertEquals(List.of(1, 5, 20, 50, 100), p.levels());
    assertEquals(Duration.ofSeconds(LoadParams.DEFAULT_DURATION_SECONDS), p.duration());
    assertEquals(Optional.empty(), p.calls());
    assertEquals(InvocationMode.ASYNC, p.mode());
    assertEquals(Optional.empty(), p.target());
    assertEquals(200, p.syncThreads());
    assertEquals(0, p.connections());
    assertTrue(p.warmup().auto());
    assertEquals(1.0, p.maxKoPercent(), 1e-9);
    assertEquals(Duration.ofSeconds(10), p.maxFailingSeconds());
    assertEquals(RpcSettings.DEFAULT_KO_PAUSE, p.koPause());
    assertEquals(Duration.ofSeconds(Warmup.DEFAULT_MAX_SECONDS), p.warmup().max());
  }

  @Test
  void oneDefaultTimeoutForTheDslAndTheParameter() {
    // Was 5 s in the DSL and 3000 ms from -Dtimeout.
    assertEquals(RpcSettings.defaults(1).timeout(), new LoadParams(Map.of()).timeout());
    assertEquals(Duration.ofMillis(3000), RpcSettings.DEFAULT_TIMEOUT);
  }

  @Test
  void warmupIsAutoOrSeconds() {
    Warmup.Plan auto = new LoadParams(Map.of("warmup", "auto", "warmupMax", "20")).warmup();
    assertTrue(auto.auto());
    assertEquals(Duration.ofSeconds(20), auto.limit());
    Warmup.Plan fixed = new LoadParams(Map.of("warmup", "12")).warmup();
    assertEquals(Duration.ofSeconds(12), fixed.limit());
    assertMessage("-Dwarmup must be auto or a whole number", Map.of("warmup", "soon"));
    assertMessage("-DwarmupMax", Map.of("warmupMax", "1"));
  }

  @Test
  void modesAreOneAListBothOrAll() {
    assertEquals(InvocationMode.CALLBACK, new LoadParams(Map.of("mode", "callback")).mode());
    assertEquals(List.of(InvocationMode.ASYNC, InvocationMode.CALLBACK),
        new LoadParams(Map.of("mode", "async,callback")).modes());
    assertEquals(List.of(InvocationMode.ASYNC, InvocationMode.SYNC), new LoadParams(Map.of("mode", "both")).modes());
    assertEquals(List.of(InvocationMode.ASYNC, InvocationMode.SYNC, InvocationMode.CALLBACK),
        new LoadParams(Map.of("mode", "all")).modes());
    assertMessage("mode must be async, sync or callback, got 'future'", Map.of("mode", "future"));
    assertMessage("-Dmode lists sync twice", Map.of("mode", "sync,sync"));
    assertThrows(IllegalArgumentException.class, () -> new LoadParams(Map.of("mode", "all")).mode(),
        "one simulation, one mode");
  }

  @Test
  void faultsAreStepsInTimeOrderWithinTheLevel() {
    List<Faults.Step> steps = new LoadParams(Map.of("faults", "kill@10s,restart@13s,stop@13500ms,cont@14s")).faults();
    assertEquals(List.of(new Faults.Step(Faults.Action.KILL, Duration.ofSeconds(10)), new Faults.Step(Faults.Action.RESTART, Duration.ofSeconds(13)),
        new Faults.Step(Faults.Action.STOP, Duration.ofMillis(13_500)), new Faults.Step(Faults.Action.CONT, Duration.ofSeconds(14))), steps);
    assertMessage("-Dfaults takes action@time steps", Map.of("faults", "explode@3s"));
    assertMessage("-Dfaults steps must be in time order", Map.of("faults", "restart@5s,kill@3s"));
    assertMessage("is not within the 15 s level", Map.of("faults", "kill@3s,restart@15s"));
  }

  @Test
  void parsesEveryParameter() {
    LoadParams p = new LoadParams(Map.of("levels", "50, 100", "duration", "7", "calls", "300000", "warmup", "0",
        "mode", "sync", "target", "10.0.0.1:20880", "timeout", "250", "syncThreads", "16", "connections", "4"));
    assertEquals(List.of(50, 100), p.levels());
    assertEquals(Duration.ofSeconds(7), p.duration());
    assertEquals(Optional.of(300_000), p.calls());
    assertTrue(p.warmup().skipped());
    assertEquals(InvocationMode.SYNC, p.mode());
    assertEquals(new HostPort("10.0.0.1", 20880), p.target().get());
    assertEquals(Duration.ofMillis(250), p.timeout());
    assertEquals(16, p.syncThreads());
    assertEquals(4, p.connections());
  }

  @Test
  void malformedValuesNameTheParameter() {
    assertMessage("-Dlevels", Map.of("levels", "1,,5"));
    assertMessage("-Dlevels", Map.of("levels", "0"));
    assertMessage("twice", Map.of("levels", "5,5"));
    assertMessage("-Dduration", Map.of("duration", "ten"));
    assertMessage("-Dcalls", Map.of("calls", "-1"));
    assertMessage("mode must be async, sync or callback", Map.of("mode", "blocking"));
    assertMessage("-Dtarget", Map.of("target", "localhost"));
    assertMessage("-Dtarget", Map.of("target", "localhost:99999"));
    assertMessage("-DsyncThreads", Map.of("syncThreads", "0"));
    assertMessage("-DmaxKoPercent must be a number from 0 to 100", Map.of("maxKoPercent", "lots"));
    assertMessage("-DkoPauseMillis", Map.of("koPauseMillis", "-5"));
    assertMessage("-DmaxFailingSeconds", Map.of("maxFailingSeconds", "x"));
  }

  @Test
  void ratesAreAListOrAutoAndReplaceTheDefaultLevels() {
    LoadParams fixed = new LoadParams(Map.of("rates", "1000, 5000,20000"));
    assertEquals(List.of(1_000, 5_000, 20_000), fixed.rates().orElseThrow().fixed());
    assertEquals(List.of(), fixed.levels(), "only rate levels when -Dlevels is not given");
    assertEquals(LoadParams.DEFAULT_MAX_IN_FLIGHT, fixed.maxInFlight());
    LoadParams both = new LoadParams(Map.of("rates", "auto", "levels", "5", "rateStart", "500"));
    assertEquals(List.of(5), both.levels());
    assertTrue(both.rates().orElseThrow().auto());
    assertEquals(500, both.rates().orElseThrow().autoStart());
    assertEquals(LoadParams.DEFAULT_AUTO_LEVELS, both.rates().orElseThrow().autoLevels());
    assertTrue(new LoadParams(Map.of()).rates().isEmpty());
    assertMessage("-Drates must be auto or", Map.of("rates", "fast"));
    assertMessage("-Drates must be auto or", Map.of("rates", "0"));
    assertMessage("-Drates lists 1000 twice", Map.of("rates", "1000,1000"));
    assertMessage("-DmaxInFlight", Map.of("rates", "1000", "maxInFlight", "0"));
    assertMessage("-Dramp", Map.of("ramp", "-1"));
    assertMessage("-Dcalls counts calls per client of closed levels", Map.of("rates", "1000", "calls", "10"));
  }

  @Test
  void choiceRejectsUnknownValues() {
    LoadParams p = new LoadParams(Map.of("serialization", "java"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> p.choice("serialization", "hessian2", List.of("hessian2", "kryo")));
    assertEquals("-Dserialization must be one of hessian2|kryo, got 'java'", e.getMessage());
  }

  private static void assertMessage(String expected, Map<String, String> values) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LoadParams(values).validate());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void injectorIdentityAndStartTime() {
    Injector alone = new LoadParams(Map.of()).injector();
    assertEquals(List.of(0, 1), List.of(alone.index(), alone.count()));
    assertEquals(Optional.empty(), alone.startAt());
    java.time.Instant now = java.time.Instant.parse("2026-11-30T21:00:00Z");
    Injector second = new LoadParams(Map.of("injector", "1/2", "startAt", "2026-11-30T21:00:30Z")).injector();
    assertEquals(List.of(1, 2), List.of(second.index(), second.count()));
    assertEquals(Optional.of(now.plusSeconds(30)), second.checkStartAt(now).startAt());
    assertEquals(Optional.of(now), new LoadParams(Map.of("startAt", Long.toString(now.toEpochMilli()))).injector()
        .startAt(), "epoch milliseconds");
    assertEquals(Optional.of(now), new LoadParams(Map.of("startAt", "2026-11-30T22:00:00+01:00")).injector()
        .startAt(), "an offset");
    // A little late is within the tolerance: the injector starts at once.
    new LoadParams(Map.of("startAt", "2026-11-30T20:59:57Z")).injector().checkStartAt(now);
    for (String bad : List.of("2/2", "0/0", "1", "a/b", "-1/2")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new LoadParams(Map.of("injector", bad)).injector());
      assertTrue(e.getMessage().startsWith("-Dinjector must be i/N"), e.getMessage());
    }
    IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("startAt", "2026-11-30T20:59:00Z")).injector().checkStartAt(now));
    assertTrue(past.getMessage().contains("was 60 s ago"), past.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("startAt", "2026-12-02T21:00:00Z")).injector().checkStartAt(now));
    IllegalArgumentException garbled = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("startAt", "tomorrow")).injector());
    assertTrue(garbled.getMessage().startsWith("-DstartAt must be an ISO-8601 time"), garbled.getMessage());
  }

  @Test
  void severalInjectorsRefuseWhatCannotLineUp() {
    for (Map<String, String> bad : List.of(
        Map.of("injectors", "2", "injector", "0/2"),
        Map.of("injectors", "2", "startAt", "2026-11-30T21:00:00Z"),
        Map.of("injectors", "2", "rates", "auto"),
        Map.of("injector", "0/2", "rates", "auto"),
        Map.of("injectors", "2", "ramp", "5"),
        Map.of("injectors", "2", "settle", "auto"),
        Map.of("injector", "1/2", "faults", "stop@1s,cont@2s"))) {
      assertThrows(IllegalArgumentException.class, () -> new LoadParams(bad).validate(), bad.toString());
    }
    assertEquals(2, new LoadParams(Map.of("injectors", "2", "rates", "1000")).validate().injectors());
    IllegalArgumentException shootout = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("injectors", "2")).singleInjector("RpcShootout"));
    assertTrue(shootout.getMessage().startsWith("RpcShootout runs as one injector"), shootout.getMessage());
  }

  @Test
  void eachLevelSettlesUntilSteadyByDefaultAndForAFixedTimeWhenInjectorsMustLineUp() {
    assertEquals(new protocols.load.Warmup.Plan(true, java.time.Duration.ZERO, java.time.Duration.ofSeconds(10)),
        new LoadParams(Map.of()).settle());
    assertTrue(new LoadParams(Map.of("settle", "0")).settle().skipped());
    assertEquals(java.time.Duration.ofSeconds(3), new LoadParams(Map.of("injectors", "2")).settle().limit());
    assertFalse(new LoadParams(Map.of("injector", "1/2", "startAt", "2026-11-30T21:00:30Z")).settle().auto());
    assertEquals(java.time.Duration.ofSeconds(5), new LoadParams(Map.of("injectors", "2", "settle", "5")).validate()
        .settle().fixed());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> new LoadParams(Map.of("settle", "later")).validate());
    assertTrue(bad.getMessage().startsWith("-Dsettle must be auto or a whole number of seconds"), bad.getMessage());
  }

  @Test
  void discoveryIsAnOrderedListOfDirectAndRegistry() {
    assertEquals(List.of(), new LoadParams(Map.of()).discovery());
    assertEquals(List.of(Discovery.REGISTRY, Discovery.DIRECT),
        new LoadParams(Map.of("discovery", "registry, direct")).discovery());
    for (String bad : List.of("sideways", "direct,direct", "direct,")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new LoadParams(Map.of("discovery", bad)).validate());
      assertTrue(e.getMessage().startsWith("-Ddiscovery must be direct, registry or direct,registry"), e.getMessage());
    }
  }
}
