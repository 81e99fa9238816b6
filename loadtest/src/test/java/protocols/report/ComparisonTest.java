package protocols.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ComparisonTest {
  @Test
  void requestPagesAreNamedAsGatlingNamesThem() {
    // Seen in a Gatling 3.15.1 report folder.
    assertEquals("req_dubbo-echo-1-cl--1534942603.html",
        Comparison.gatlingRequestPage("dubbo echo 1 clients (async)"));
  }

  @Test
  void niceAxisCeilings() {
    assertEquals(50_000, SvgChart.niceCeiling(41_234), 1e-9);
    assertEquals(250, SvgChart.niceCeiling(201), 1e-9);
    assertEquals(1, SvgChart.niceCeiling(0), 1e-9);
  }
}
