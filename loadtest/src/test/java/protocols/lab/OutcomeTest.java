package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutcomeTest {
  /** Two rows of the assertions table as Gatling 3.15.1's report writes them (the second one failed). */
  private static final String TABLE = """
      <table id="container_assertions" class="statistics-in extensible-geant">
      		<tbody>
      <tr>
        <td class="error-col-1 ok total">
          echo 1 clients (async): percentage of failed events is less than or equal to 1.0
          <span class="value" style="display:none">0</span>
        </td>
        <td class="error-col-2 value ok total">OK</td>
      </tr>
      <tr>
        <td class="error-col-1 ko total">
          echo 50 clients (async): percentage of failed events is less than or equal to 1.0
          <span class="value" style="display:none">1</span>
        </td>
        <td class="error-col-2 value ko total">KO</td>
      </tr>
      		</tbody>
          </table>
      """;

  @Test
  void gatlingsFailedAssertionsAreReadFromItsReportAndComeFirst(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("index.html"), "<html>" + TABLE + "</html>");
    Outcome.Assertions a = Outcome.gatlingAssertions(dir).orElseThrow();
    assertEquals(2, a.total());
    assertEquals(List.of("echo 50 clients (async): percentage of failed events is less than or equal to 1.0"),
        a.failed());
    Outcome.Ended ended = Outcome.of(ExitStatus.FAILED, Optional.of(a), List.of("every call failed for 5 s"));
    assertEquals(Outcome.ASSERTIONS_FAILED, ended.outcome());
    assertTrue(ended.line().startsWith("RESULT: assertions-failed: assertions failed (1 of 2): echo 50 clients")
        && ended.line().endsWith("; every call failed for 5 s"), ended.line());
  }

  @Test
  void theLabsOwnVerdictsAndErrorsHaveTheirOwnOutcomes(@TempDir Path dir) throws Exception {
    assertEquals(Optional.empty(), Outcome.gatlingAssertions(dir), "no report: no assertion read");
    Files.writeString(dir.resolve("index.html"), "<html>no assertions table</html>");
    assertEquals(Optional.empty(), Outcome.gatlingAssertions(dir));
    assertEquals(Outcome.OK, Outcome.of(0, Optional.empty(), List.of()).outcome());
    assertEquals(Outcome.VERDICT_FAILED, Outcome.of(ExitStatus.FAILED, Optional.empty(), List.of("gate")).outcome());
    Outcome.Assertions failed = new Outcome.Assertions(1, List.of("x"));
    assertEquals(Outcome.CRASHED, Outcome.of(ExitStatus.INTERNAL_ERROR, Optional.of(failed),
        List.of("internal error: the report could not be written")).outcome(), "a crash hides any verdict");
  }
}
