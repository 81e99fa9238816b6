package protocols.stats;

/**
 * Whether an open-model level kept up with its offered rate, and if not, what held it back as far as
 * the run's own figures tell ({@code limit}: {@link #INJECTOR} or {@link #SERVER}; null when it kept up).
 */
public record Saturation(boolean saturated, String limit, String reason) {
  public static final String INJECTOR = "injector";
  public static final String SERVER = "server";
}
