package protocols;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README stays short and leads to every page under docs/; no page links to a file that is not there. */
class DocsTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void theReadmeIsShortAndLinksEveryPage() throws IOException {
    List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
    assertTrue(readme.size() <= 250, "README.md has " + readme.size() + " lines");
    String text = String.join("\n", readme);
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
        assertTrue(text.contains("](docs/" + page.getFileName() + ")"), "README.md does not link " + page);
      }
    }
  }

  @Test
  void everyRelativeLinkLeadsToAFile() throws IOException {
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      files.addAll(pages.filter(p -> p.toString().endsWith(".md")).toList());
    }
    for (Path file : files) {
      Matcher m = LINK.matcher(Files.readString(file));
      while (m.find()) {
        String target = m.group(1);
        if (!target.contains("://")) {
          assertTrue(Files.exists(file.getParent().resolve(target)), file + " links " + target + ", not there");
        }
      }
    }
  }
}
