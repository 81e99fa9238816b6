package docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/ compiles against the plugin, as a user would paste it:
 * its imports are written in the block, and the rest is the body of a simulation (its constructor: statements,
 * {@code setUp(...)} included).
 */
class DocSnippetsTest {
  private static final Path ROOT = Paths.get("..");

  /** One block: where it is, its imports, its body. */
  record Snippet(String where, List<String> imports, String body) {
    String source(String className) {
      return "package snippets;\n" + String.join("\n", imports) + "\npublic class " + className
          + " extends io.gatling.javaapi.core.Simulation {\n{\n" + body + "\n}\n}\n";
    }
  }

  static List<Snippet> snippets() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<Snippet> out = new ArrayList<>();
    for (Path page : pages) {
      List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).trim().equals("```java")) {
          continue;
        }
        int start = i + 1;
        List<String> imports = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (i = start; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
          String line = lines.get(i);
          if (line.startsWith("import ")) {
            imports.add(line);
          } else {
            body.append(line).append('\n');
          }
        }
        out.add(new Snippet(ROOT.relativize(page) + ":" + start, imports, body.toString()));
      }
    }
    return out;
  }

  @Test
  void everyJavaBlockOfTheDocsCompilesAgainstThePlugin(@TempDir Path out) throws IOException {
    List<Snippet> snippets = snippets();
    assertTrue(snippets.size() >= 10, "the docs' java blocks: " + snippets.size());
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> failures = new ArrayList<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      for (int n = 0; n < snippets.size(); n++) {
        Snippet s = snippets.get(n);
        String name = "Snippet" + n;
        String source = s.source(name);
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///snippets/" + name + ".java"),
            JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, files, null, List.of("-classpath", System.getProperty("java.class.path"),
            "-d", out.toString(), "-proc:none", "-Xlint:none", "-nowarn"), null, List.of(file)).call();
        if (!ok) {
          failures.add(s.where() + ":\n" + errors);
        }
      }
    }
    assertTrue(failures.isEmpty(), failures.size() + " of " + snippets.size() + " blocks do not compile:\n"
        + String.join("\n", failures));
  }
}
