package protocols.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run's folder without Linux's /proc (macOS, Windows): from Gatling's -rf and the newest run begun since the JVM started. */
class RunFolderTest {

  @Test
  void withoutProcTheNewRunFolderUnderGatlingsResultsFolderIsTheRunsOwn(@TempDir Path results) throws Exception {
    long started = System.currentTimeMillis();
    Path old = Files.createDirectories(results.resolve("dubboecho-20261130120000000"));
    Files.writeString(old.resolve("simulation.log"), "");
    Files.setLastModifiedTime(old.resolve("simulation.log"), FileTime.fromMillis(started - 3_600_000));
    Path now = Files.createDirectories(results.resolve("dubboecho-20261201120000000"));
    Files.writeString(now.resolve("simulation.log"), "");
    Files.createDirectories(results.resolve("not-a-run"));

    assertEquals(Optional.empty(), RunFolder.fromOpenFiles(results.resolve("no-proc-here")), "no /proc");
    assertEquals(Optional.of(now), RunFolder.fromResultsFolder(List.of("-s", "simulations.DubboEcho", "-rf",
        results.toString(), "-rd", "x"), started));
    assertEquals(Optional.empty(), RunFolder.fromResultsFolder(List.of("-s", "simulations.DubboEcho"), started),
        "no -rf: not found, and the run says so rather than writing elsewhere");
    Files.setLastModifiedTime(now.resolve("simulation.log"), FileTime.fromMillis(started - 60_000));
    assertEquals(Optional.empty(), RunFolder.fromResultsFolder(List.of("-rf", results.toString()), started),
        "a run folder older than this JVM is another run's");
  }
}
