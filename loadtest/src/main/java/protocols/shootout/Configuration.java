package protocols.shootout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import protocols.frameworks.Frameworks;
import protocols.lab.LoadParams;
import protocols.lab.RpcFramework;

/**
 * One framework in one configuration of its own knobs: a variant of RpcTuning, with its own server.
 *
 * @param values every knob's value, by property
 * @param base whether it is the sweep's base: the knobs as given (-D), else the framework's defaults
 * @param knob the knob this configuration moves away from the base; null for the base and the defaults
 */
record Configuration(RpcFramework<?, ?> framework, Map<String, String> values, boolean base, RpcFramework.Param knob) {
  Configuration {
    values = Map.copyOf(values);
  }

  /**
   * Each framework's configurations: its defaults, the base when it differs from them, then each knob's
   * other values one at a time around the base. {@code knobs}: the -Dknobs list (properties), else all.
   */
  static List<Configuration> sweep(List<RpcFramework<?, ?>> frameworks, LoadParams params, Optional<String> knobs) {
    Set<String> asked = new LinkedHashSet<>();
    knobs.ifPresent(list -> {
      for (String k : list.split(",", -1)) {
        asked.add(k.trim());
      }
    });
    Set<String> known = new LinkedHashSet<>();
    frameworks.forEach(f -> f.params().forEach(p -> known.add(p.property())));
    for (String k : asked) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("-Dknobs: no knob '" + k + "' among the frameworks run; known: "
            + String.join(",", known));
      }
    }
    List<Configuration> out = new ArrayList<>();
    for (RpcFramework<?, ?> f : frameworks) {
      Map<String, String> defaults = new LinkedHashMap<>();
      Map<String, String> base = new LinkedHashMap<>();
      for (RpcFramework.Param p : f.params()) {
        defaults.put(p.property(), p.defaultValue());
        base.put(p.property(), p.value(params)); // a bad value ends here, with one line
      }
      boolean baseIsDefault = base.equals(defaults);
      out.add(new Configuration(f, defaults, baseIsDefault, null));
      if (!baseIsDefault) {
        out.add(new Configuration(f, base, true, null));
      }
      for (RpcFramework.Param p : f.params()) {
        if (!asked.isEmpty() && !asked.contains(p.property())) {
          continue;
        }
        for (String v : p.tried()) {
          if (!v.equals(base.get(p.property()))) {
            Map<String, String> moved = new LinkedHashMap<>(base);
            moved.put(p.property(), v);
            if (!moved.equals(defaults)) { // back at the defaults: already measured
              out.add(new Configuration(f, moved, false, p));
            }
          }
        }
      }
    }
    return out;
  }

  /** {@code framework} as shipped: every knob at its default. */
  static Configuration defaults(RpcFramework<?, ?> framework) {
    Map<String, String> values = new LinkedHashMap<>();
    framework.params().forEach(p -> values.put(p.property(), p.defaultValue()));
    return new Configuration(framework, values, true, null);
  }

  /**
   * {@code framework} with {@code knobs} set (property to value), the others at their defaults; an
   * unknown knob or a bad value is one line ({@link IllegalArgumentException}).
   */
  static Configuration tuned(RpcFramework<?, ?> framework, Map<String, String> knobs) {
    Map<String, String> values = new LinkedHashMap<>(defaults(framework).values());
    for (Map.Entry<String, String> k : knobs.entrySet()) {
      RpcFramework.Param p = framework.params().stream().filter(q -> q.property().equals(k.getKey())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("-Dtuned: " + framework.name() + " has no knob '"
              + k.getKey() + "'; its knobs: " + String.join(",", framework.params().stream()
              .map(RpcFramework.Param::property).toList())));
      values.put(p.property(), p.value(new LoadParams(Map.of(p.property(), k.getValue())))); // checked
    }
    return new Configuration(framework, values, true, null);
  }

  /** -Dtuned's configuration of each framework run that it names; empty without -Dtuned. */
  static Map<RpcFramework<?, ?>, Configuration> tunedIn(LoadParams params, List<RpcFramework<?, ?>> frameworks) {
    Map<RpcFramework<?, ?>, Configuration> out = new LinkedHashMap<>();
    Optional<String> file = params.optional("tuned");
    if (file.isPresent()) {
      Map<String, Map<String, String>> knobs = readTuned(java.nio.file.Path.of(file.get()));
      for (String name : knobs.keySet()) {
        try {
          Frameworks.byName(name);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("-Dtuned=" + file.get() + ": " + e.getMessage());
        }
      }
      for (RpcFramework<?, ?> f : frameworks) {
        if (knobs.containsKey(f.name())) {
          out.put(f, tuned(f, knobs.get(f.name())));
        }
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("-Dtuned=" + file.get() + " names none of the frameworks run");
      }
    }
    return out;
  }

  /**
   * -Dtuned's file: a tuning.json (its {@code tuned}: each framework's knobs as RpcTuning found them) or a
   * file of knob values per framework, {@code {"thrift": {"thrift.client": "loops"}}}.
   */
  static Map<String, Map<String, String>> readTuned(java.nio.file.Path file) {
    com.fasterxml.jackson.databind.JsonNode root;
    try {
      root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("-Dtuned=" + file + ": not a readable JSON file (" + e.getMessage()
          .lines().findFirst().orElse("") + ")");
    }
    com.fasterxml.jackson.databind.JsonNode tuned = root != null && root.has("tuned") ? root.get("tuned") : root;
    if (tuned == null || !tuned.isObject()) {
      throw new IllegalArgumentException("-Dtuned=" + file + ": expected a tuning.json or {\"<framework>\":"
          + " {\"<knob>\": \"<value>\"}}");
    }
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    tuned.fields().forEachRemaining(f -> {
      if (!f.getValue().isObject()) {
        throw new IllegalArgumentException("-Dtuned=" + file + ": " + f.getKey() + "'s knobs must be an object of"
            + " knob to value");
      }
      Map<String, String> knobs = new LinkedHashMap<>();
      f.getValue().fields().forEachRemaining(k -> knobs.put(k.getKey(), k.getValue().asText()));
      out.put(f.getKey(), knobs);
    });
    return out;
  }

  /**
   * The name runs, pages and files show, made here alone: the framework's, then each knob that is not
   * at its default ({@code thrift protocol=compact}), the framework's prefix left out of its property.
   */
  String name() {
    StringBuilder out = new StringBuilder(framework.name());
    for (RpcFramework.Param p : framework.params()) {
      String v = values.get(p.property());
      if (!v.equals(p.defaultValue())) {
        out.append(' ').append(shortName(framework, p)).append('=').append(v);
      }
    }
    return out.toString();
  }

  /** The value this configuration gives the knob it moves; null for the base and the defaults. */
  String movedValue() {
    return knob == null ? null : values.get(knob.property());
  }

  /** Whether every knob is at the framework's default: the configuration as shipped. */
  boolean defaults() {
    return framework.params().stream().allMatch(p -> values.get(p.property()).equals(p.defaultValue()));
  }

  /** The run's parameters with this configuration's knobs set. */
  LoadParams params(LoadParams run) {
    LoadParams out = run;
    for (Map.Entry<String, String> e : values.entrySet()) {
      out = out.with(e.getKey(), e.getValue());
    }
    return out;
  }

  /** {@code thrift.protocol} as {@code protocol}: the framework is already named. */
  static String shortName(RpcFramework<?, ?> framework, RpcFramework.Param p) {
    String prefix = framework.name() + ".";
    return p.property().startsWith(prefix) ? p.property().substring(prefix.length()) : p.property();
  }
}
