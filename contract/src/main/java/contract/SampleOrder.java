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

  /** The most orders {@code listOrders(count)} returns; a larger count is a bad request. */
  public static final int MAX_LIST = 100_000;
  /** The most orders one {@code watch(count)} stream sends; a larger count is a bad request. */
  public static final int MAX_WATCH = 10_000_000;

  private SampleOrder() {}

  /**
   * The check every server's {@code listOrders} makes.
   *
   * @return null if {@code count} is fine, otherwise the error message
   */
  public static String badCount(int count) {
    return count < 0 || count > MAX_LIST ? "count must be between 0 and " + MAX_LIST + ", got " + count : null;
  }

  /** The check every server's {@code watch} makes: null if {@code count} is fine, otherwise the error message. */
  public static String badWatchCount(int count) {
    return count < 0 || count > MAX_WATCH ? "count must be between 0 and " + MAX_WATCH + ", got " + count : null;
  }

  /** Any framework's Order made from its eight fields, e.g. {@code Order::new}. */
  @FunctionalInterface
  public interface Fields<T> {
    T make(long orderId, String phone, String name, String orderNum, int orderDate, int ticketType, double amount,
           int orderStatus);
  }

  /** The sample order with the given id and name, as {@code fields} makes it. */
  public static <T> T make(Fields<T> fields, long orderId, String name) {
    return fields.make(orderId, PHONE, name, ORDER_NUM, ORDER_DATE, TICKET_TYPE, AMOUNT, ORDER_STATUS);
  }

  /** {@code count} sample orders, ids 0 to count-1: what every server's {@code listOrders} returns. */
  public static <T> java.util.List<T> list(Fields<T> fields, int count) {
    java.util.List<T> orders = new java.util.ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      orders.add(make(fields, i, NAME));
    }
    return orders;
  }

  /** {@link #NAME} cut or padded with 'x' to {@code chars} characters: larger messages, same shape. */
  public static String name(int chars) {
    if (chars <= NAME.length()) {
      return NAME.substring(0, chars);
    }
    return NAME + "x".repeat(chars - NAME.length());
  }
}
