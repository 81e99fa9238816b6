package contract.pojo;

import java.io.Serializable;
import java.util.Objects;

/**
 * The write-ups' order as a plain Java bean, for the frameworks that serialize Java objects (Dubbo's
 * hessian2, kryo and fastjson2; the Netty/Kryo ceiling): a no-argument constructor and bean accessors. Equality is field by field so the echo check
 * can compare a reply with its request.
 */
public final class Order implements Serializable {
  private static final long serialVersionUID = 1L;

  private long orderId;
  private String phone;
  private String name;
  private String orderNum;
  private int orderDate;
  private int ticketType;
  private double amount;
  private int orderStatus;

  public Order() {}

  public Order(long orderId, String phone, String name, String orderNum,
               int orderDate, int ticketType, double amount, int orderStatus) {
    this.orderId = orderId;
    this.phone = phone;
    this.name = name;
    this.orderNum = orderNum;
    this.orderDate = orderDate;
    this.ticketType = ticketType;
    this.amount = amount;
    this.orderStatus = orderStatus;
  }

  public long getOrderId() { return orderId; }
  public void setOrderId(long orderId) { this.orderId = orderId; }
  public String getPhone() { return phone; }
  public void setPhone(String phone) { this.phone = phone; }
  public String getName() { return name; }
  public void setName(String name) { this.name = name; }
  public String getOrderNum() { return orderNum; }
  public void setOrderNum(String orderNum) { this.orderNum = orderNum; }
  public int getOrderDate() { return orderDate; }
  public void setOrderDate(int orderDate) { this.orderDate = orderDate; }
  public int getTicketType() { return ticketType; }
  public void setTicketType(int ticketType) { this.ticketType = ticketType; }
  public double getAmount() { return amount; }
  public void setAmount(double amount) { this.amount = amount; }
  public int getOrderStatus() { return orderStatus; }
  public void setOrderStatus(int orderStatus) { this.orderStatus = orderStatus; }

  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof Order other)) return false;
    return orderId == other.orderId
        && orderDate == other.orderDate
        && ticketType == other.ticketType
        && Double.compare(amount, other.amount) == 0
        && orderStatus == other.orderStatus
        && Objects.equals(phone, other.phone)
        && Objects.equals(name, other.name)
        && Objects.equals(orderNum, other.orderNum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(orderId, phone, name, orderNum, orderDate, ticketType, amount, orderStatus);
  }

  @Override
  public String toString() {
    return "Order{orderId=" + orderId + ", phone=" + phone + ", name=" + name + ", orderNum=" + orderNum
        + ", orderDate=" + orderDate + ", ticketType=" + ticketType + ", amount=" + amount
        + ", orderStatus=" + orderStatus + '}';
  }
}
