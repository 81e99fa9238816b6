package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemPropertyTest {
  /** The Maven plugin's own escape of a -D value for its forked JVM (gatling-enterprise-plugin-commons). */
  private static String pluginEscape(String value) throws Exception {
    Method escape = Class.forName("io.gatling.plugin.util.Fork").getDeclaredMethod("escape", String.class);
    escape.setAccessible(true);
    return (String) escape.invoke(null, value);
  }

  @Test
  void whatThePluginEscapesComesBackAsTyped() throws Exception {
    for (String typed : List.of("{\"sku\": \"A1\", \"qty\": 2}", "C:\\orders\\new", "it's", "tab\there\nand line",
        "café 東京 \u0001", "1,5,20", "\\u0041 typed as such", "")) {
      String escaped = pluginEscape(typed);
      assertEquals(typed, SystemProperty.unescape(escaped), escaped);
    }
    assertEquals("{\\\"sku\\\": \\\"A1\\\"}", pluginEscape("{\"sku\": \"A1\"}"), "what the fork receives today");
  }

  @Test
  void onlyAJvmForkedByThePluginIsUnescaped() {
    assertTrue(SystemProperty.forkedByMavenPlugin("/tmp/gatlingbooter8061535313370713399.jar"));
    assertFalse(SystemProperty.forkedByMavenPlugin("io.gatling.app.Gatling -s simulations.DubboEcho"));
    assertFalse(SystemProperty.forkedByMavenPlugin(""));
    assertEquals("a\\\"b", SystemProperty.asTyped("a\\\"b"), "this test's JVM was not forked by the plugin");
  }
}
