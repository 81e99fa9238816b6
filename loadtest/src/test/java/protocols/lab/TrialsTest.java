package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import protocols.rpc.InvocationMode;
import protocols.stats.Level;

class TrialsTest {
  private static final List<String> VARIANTS = List.of("dubbo", "thrift", "grpc", "ice");

  @Test
  void eachRoundRunsEveryVariantOnceInAnOrderItsSeedRepeats() {
    Trials trials = Trials.of(new LoadParams(Map.of("repeat", "5", "seed", "7")), 3);
    List<List<String>> rounds = trials.rounds(VARIANTS, 0);
    assertEquals(5, rounds.size());
    Set<List<String>> orders = new HashSet<>();
    for (List<String> round : rounds) {
      assertEquals(Set.copyOf(VARIANTS), Set.copyOf(round));
      assertEquals(VARIANTS.size(), round.size());
      orders.add(round);
    }
    assertTrue(orders.size() > 1, "shuffled per round: " + rounds);
    assertEquals(rounds, trials.rounds(VARIANTS, 0), "the same seed, the same order");
    assertNotEquals(rounds, trials.rounds(VARIANTS, 1), "each level its own shuffles");
    assertEquals(List.of(1, 2, 3, 4, 5), trials.numbers());
  }

  @Test
  void oneTrialKeepsTheOrderAndTheLevelsNames() {
    Trials once = Trials.of(new LoadParams(Map.of()), 1);
    assertEquals(List.of(VARIANTS), once.rounds(VARIANTS, 0));
    assertEquals(List.of(0), once.numbers());
    Level level = Level.closed("grpc", 20, InvocationMode.ASYNC);
    assertEquals("grpc echo 20 clients (async)", level.trial(0).name());
    assertEquals("grpc echo 20 clients (async) trial 2", level.trial(2).name());
    assertEquals("grpc settle at 20 clients (async) trial 2", level.trial(2).settle().name());
    assertEquals(level, level.trial(2).overTrials());
    assertEquals(3, Trials.of(new LoadParams(Map.of()), 3).repeat(), "the run's default");
  }

  @Test
  void delaysAreVariantsNamedFromTheirValues() {
    LoadParams params = new LoadParams(Map.of("serverDelayUs", "0,0,400"));
    List<Integer> delays = Trials.serverDelays(params);
    assertEquals(List.of(0, 0, 400), delays);
    assertEquals(List.of("grpc", "grpc #2", "grpc +400us"),
        List.of(0, 1, 2).stream().map(i -> Trials.delayVariant("grpc", delays, i)).toList());
    IllegalArgumentException one = assertThrows(IllegalArgumentException.class, params::serverDelayUs);
    assertTrue(one.getMessage().contains("RpcShootout"), one.getMessage());
    assertEquals(java.util.Optional.of(400), new LoadParams(Map.of("serverDelayUs", "400")).serverDelayUs());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> Trials.serverDelays(new LoadParams(Map.of("serverDelayUs", "0,fast"))));
    assertEquals("-DserverDelayUs must be a whole number from 0 to 10000000, got 'fast'", bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Trials.of(new LoadParams(Map.of("repeat", "0")), 3));
    assertThrows(IllegalArgumentException.class, () -> Trials.of(new LoadParams(Map.of("seed", "x")), 3));
  }
}
