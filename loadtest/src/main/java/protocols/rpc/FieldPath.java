package protocols.rpc;

import com.google.protobuf.Descriptors;
import com.google.protobuf.MessageOrBuilder;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A field of a reply by name or path, {@code items[0].sku}, whatever the reply is: a generic Dubbo call's
 * maps, a protobuf message (gRPC's {@code DynamicMessage} or a generated one; a field by its proto or its
 * JSON name), a list or an array, a Thrift or Ice struct (public fields) or a Java object (a getter, a record
 * accessor or a public field). Enums read as their names. Immutable.
 */
final class FieldPath {
  private static final Pattern STEP = Pattern.compile("([A-Za-z_$][A-Za-z0-9_$]*)?((?:\\[\\d+])*)");
  private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");

  private sealed interface Step permits Name, Index {
  }

  private record Name(String name) implements Step {
  }

  private record Index(int index) implements Step {
  }

  private final String path;
  private final List<Step> steps;

  private FieldPath(String path, List<Step> steps) {
    this.path = path;
    this.steps = steps;
  }

  /** {@code a.b[2].c}; a malformed path is refused here, when the simulation is built. */
  static FieldPath parse(String path) {
    Objects.requireNonNull(path, "path");
    List<Step> steps = new ArrayList<>();
    for (String part : path.split("\\.", -1)) {
      Matcher m = STEP.matcher(part);
      if (part.isEmpty() || !m.matches() || (m.group(1) == null && steps.isEmpty() && m.group(2).isEmpty())) {
        throw new IllegalArgumentException("field path '" + path + "': expected names and [index]es, e.g."
            + " items[0].sku");
      }
      if (m.group(1) != null) {
        steps.add(new Name(m.group(1)));
      }
      Matcher i = INDEX.matcher(m.group(2));
      while (i.find()) {
        steps.add(new Index(Integer.parseInt(i.group(1))));
      }
    }
    return new FieldPath(path, List.copyOf(steps));
  }

  /** The value at this path in {@code reply}; an {@link IllegalArgumentException} says where the path left it. */
  Object read(Object reply) {
    Object at = reply;
    StringBuilder walked = new StringBuilder();
    for (Step step : steps) {
      if (at == null) {
        throw new IllegalArgumentException("field " + path + ": " + (walked.length() == 0 ? "the reply" : walked)
            + " is null");
      }
      at = step instanceof Name n ? field(at, n.name(), walked) : element(at, ((Index) step).index(), walked);
      walked.append(step instanceof Name n ? (walked.length() == 0 ? "" : ".") + n.name() : "[" + ((Index) step).index() + "]");
    }
    return plain(at);
  }

  private Object field(Object at, String name, CharSequence walked) {
    if (at instanceof Map<?, ?> map) {
      if (map.containsKey(name)) {
        return map.get(name);
      }
      throw missing(name, walked, "keys " + map.keySet());
    }
    if (at instanceof MessageOrBuilder message) {
      Descriptors.Descriptor type = message.getDescriptorForType();
      Descriptors.FieldDescriptor fd = type.findFieldByName(name);
      if (fd == null) {
        fd = type.getFields().stream().filter(f -> f.getJsonName().equals(name)).findFirst().orElse(null);
      }
      if (fd == null) {
        throw missing(name, walked, type.getName() + "'s fields " + type.getFields().stream()
            .map(Descriptors.FieldDescriptor::getName).toList());
      }
      return message.getField(fd);
    }
    Class<?> c = at.getClass();
    String cap = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    for (String getter : List.of(name, "get" + cap, "is" + cap)) {
      try {
        Method m = c.getMethod(getter);
        if (m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()) && m.getReturnType() != void.class) {
          return m.invoke(at);
        }
      } catch (NoSuchMethodException e) {
        // the next form
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException("field " + path + ": " + getter + "() of " + c.getSimpleName()
            + " failed: " + e.getCause());
      }
    }
    try {
      Field f = c.getField(name);
      if (!Modifier.isStatic(f.getModifiers())) {
        return f.get(at);
      }
    } catch (NoSuchFieldException | IllegalAccessException e) {
      // named below
    }
    throw missing(name, walked, c.getSimpleName() + "'s public fields " + Arrays.stream(c.getFields())
        .filter(f -> !Modifier.isStatic(f.getModifiers())).map(Field::getName).toList());
  }

  private Object element(Object at, int index, CharSequence walked) {
    int size = at instanceof List<?> list ? list.size() : at.getClass().isArray() ? Array.getLength(at) : -1;
    if (size < 0) {
      throw new IllegalArgumentException("field " + path + ": " + (walked.length() == 0 ? "the reply" : walked)
          + " is a " + at.getClass().getSimpleName() + ", not a list");
    }
    if (index >= size) {
      throw new IllegalArgumentException("field " + path + ": " + walked + " has " + size + " elements, no ["
          + index + "]");
    }
    return at instanceof List<?> list ? list.get(index) : Array.get(at, index);
  }

  private IllegalArgumentException missing(String name, CharSequence walked, String has) {
    return new IllegalArgumentException("field " + path + ": no '" + name + "' in "
        + (walked.length() == 0 ? "the reply" : walked) + " (" + has + ")");
  }

  private static Object plain(Object v) {
    if (v instanceof Descriptors.EnumValueDescriptor e) {
      return e.getName();
    }
    return v instanceof Enum<?> e ? e.name() : v;
  }

  @Override
  public String toString() {
    return path;
  }
}
