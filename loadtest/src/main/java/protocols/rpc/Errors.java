package protocols.rpc;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Error text for one-line messages. */
public final class Errors {
  private Errors() {}

  /** Strips the wrappers futures add around the real cause. */
  public static Throwable unwrap(Throwable t) {
    Throwable e = t;
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  /** The innermost cause as {@code Type: first line of message}. */
  public static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return oneLine(root);
  }

  /** {@code Type: first line of message}. */
  public static String oneLine(Throwable t) {
    String msg = t.getMessage();
    String first = msg == null ? "" : msg.lines().findFirst().orElse("");
    return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
  }
}
