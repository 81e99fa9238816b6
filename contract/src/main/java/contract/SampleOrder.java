package contract;

/** The field values every framework's sample order carries, so all frameworks move the same bytes. */
public final class SampleOrder {
  public static final String PHONE = "13800138000";
  public static final String NAME = "Zhang San";
  public static final String ORDER_NUM = "ORD-20170401-000123";
  public static final int ORDER_DATE = 20170401;
  public static final int TICKET_TYPE = 2;
  public static final double AMOUNT = 199.99;
  public static final int ORDER_STATUS = 1;

  private SampleOrder() {}

  /** {@link #NAME} cut or padded with 'x' to {@code chars} characters: larger messages, same shape. */
  public static String name(int chars) {
    if (chars <= NAME.length()) {
      return NAME.substring(0, chars);
    }
    return NAME + "x".repeat(chars - NAME.length());
  }
}
