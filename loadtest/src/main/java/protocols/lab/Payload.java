package protocols.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import contract.SampleOrder;

/**
 * One of {@code -Dpayload}'s sizes: the sample order's name grown to {@code bytes} characters (ASCII,
 * so the same bytes in every framework's encoding, beside the order's other fields and the framework's
 * framing), or the sample order itself.
 */
public record Payload(int bytes, boolean sample) {
  /** The largest size taken: 64 MiB. */
  public static final int MAX_BYTES = 64 * 1024 * 1024;

  /** {@code -Dpayload=sample,1024,16384}: the sizes in the order given; empty when not given. */
  public static List<Payload> list(LoadParams params) {
    List<Payload> out = new ArrayList<>();
    params.optional("payload").ifPresent(v -> {
      if (params.optional("orderNameChars").isPresent()) {
        throw new IllegalArgumentException("-Dpayload sets the order's name per size; leave out -DorderNameChars");
      }
      for (String s : v.split(",", -1)) {
        String t = s.trim();
        Payload p = t.equals("sample") ? new Payload(SampleOrder.NAME.length(), true)
            : new Payload(ParamValues.wholeNumber("payload", t, 1, MAX_BYTES), false);
        if (out.contains(p)) {
          throw new IllegalArgumentException("-Dpayload lists " + t + " twice");
        }
        out.add(p);
      }
    });
    return out;
  }

  /**
   * {@code -Dpayload} where {@code simulation} runs one size (an echo, a sweep): the run's parameters at
   * it, or as given without -Dpayload; a list of sizes is one line.
   */
  public static LoadParams one(LoadParams params, String simulation) {
    List<Payload> sizes = list(params);
    if (sizes.size() > 1) {
      throw new IllegalArgumentException("-Dpayload=" + params.optional("payload").orElse("") + ": " + simulation
          + " runs one size; give one, or compare sizes with -Dsimulation=RpcShootout -Dpayload=...");
    }
    return sizes.isEmpty() ? params : sizes.get(0).apply(params, sizes);
  }

  /** {@code sample}, {@code 512 B}, {@code 16 KiB}, {@code 1.5 MiB}. */
  public String label() {
    if (sample) {
      return "sample";
    }
    if (bytes >= 1024 * 1024) {
      return trim(bytes / (1024.0 * 1024)) + " MiB";
    }
    return bytes >= 1024 ? trim(bytes / 1024.0) + " KiB" : bytes + " B";
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }

  /** A framework's variant at this size, the one place its name is made: {@code thrift 16 KiB}. */
  public String variantName(String framework) {
    return framework + " " + label();
  }

  /**
   * The run's parameters at this size: the order's name and, unless -DmaxMessageBytes sets one, a
   * message limit on both sides that lets the largest of {@code all} through (twice it and 64 KiB, at
   * least 1 MiB), the same for every size so that only the size differs between them.
   */
  public LoadParams apply(LoadParams params, List<Payload> all) {
    LoadParams out = params.with("orderNameChars", Integer.toString(bytes));
    if (params.maxMessageBytes().isEmpty()) {
      long largest = all.stream().mapToLong(Payload::bytes).max().orElse(bytes);
      out = out.with("maxMessageBytes", Long.toString(Math.min(Integer.MAX_VALUE,
          Math.max(1024L * 1024, 2 * largest + 65_536))));
    }
    return out;
  }
}
