package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** -Dpayload: the sizes, their names, and the order and limits each size runs with. */
class PayloadTest {

  @Test
  void sizesAreReadInOrderAndNamedOnce() {
    List<Payload> ps = Payload.list(new LoadParams(Map.of("payload", "sample,1024,16384,1536,3145728,100")));
    assertEquals(List.of("sample", "1 KiB", "16 KiB", "1.5 KiB", "3 MiB", "100 B"),
        ps.stream().map(Payload::label).toList());
    assertEquals("thrift 16 KiB", ps.get(2).variantName("thrift"));
    assertEquals(List.of(), Payload.list(new LoadParams(Map.of())));
  }

  @Test
  void everySizeCarriesItsOrderAndTheSameLimit() {
    List<Payload> ps = Payload.list(new LoadParams(Map.of("payload", "sample,1048576")));
    LoadParams sample = ps.get(0).apply(new LoadParams(Map.of()), ps);
    LoadParams big = ps.get(1).apply(new LoadParams(Map.of()), ps);
    assertEquals("Zhang San", sample.orderName());
    assertEquals(1_048_576, big.orderName().length());
    assertEquals(2 * 1_048_576 + 65_536, big.maxMessageBytes().orElseThrow());
    assertEquals(1024 * 1024, ps.get(0).apply(new LoadParams(Map.of()), List.of(ps.get(0))).maxMessageBytes()
        .orElseThrow(), "at least 1 MiB");
    assertEquals(big.maxMessageBytes(), sample.maxMessageBytes(), "only the size differs between sizes");
    assertEquals(4096, ps.get(1).apply(new LoadParams(Map.of("maxMessageBytes", "4096")), ps).maxMessageBytes()
        .orElseThrow(), "the user's limit stands");
  }

  @Test
  void badSizesAreOneLine() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Payload.list(new LoadParams(Map.of("payload", "1k"))));
    assertTrue(e.getMessage().startsWith("-Dpayload must be a whole number"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Payload.list(new LoadParams(Map.of("payload", "1024,1024"))));
    assertEquals("-Dpayload lists 1024 twice", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Payload.list(new LoadParams(Map.of("payload", "1024", "orderNameChars", "10"))));
    assertTrue(e.getMessage().contains("leave out -DorderNameChars"), e.getMessage());
  }

  @Test
  void anEchoOrASweepTakesOneSize() {
    LoadParams sized = Payload.one(new LoadParams(Map.of("payload", "16384")), "GrpcEcho");
    assertEquals(16384, sized.orderName().length());
    assertEquals(2 * 16384 + 65_536 < 1024 * 1024 ? 1024 * 1024 : 2 * 16384 + 65_536,
        sized.maxMessageBytes().orElseThrow());
    assertEquals("Zhang San", Payload.one(new LoadParams(Map.of()), "GrpcEcho").orderName(), "without -Dpayload");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Payload.one(new LoadParams(Map.of("payload", "1024,16384")), "RpcTuning"));
    assertEquals("-Dpayload=1024,16384: RpcTuning runs one size; give one, or compare sizes with"
        + " -Dsimulation=RpcShootout -Dpayload=...", e.getMessage());
  }
}
