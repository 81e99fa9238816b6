// The write-ups' echo contract for Apache Thrift.
// Generated Java lives in src/generated/java; regenerate with contract/regenerate.sh.
namespace java contract.thrift

struct Order {
  1: i64 orderId,
  2: string phone,
  3: string name,
  4: string orderNum,
  5: i32 orderDate,
  6: i32 ticketType,
  7: double amount,
  8: i32 orderStatus
}

exception BadRequest {
  1: string message
}

service MobileService {
  Order hello(1: Order order),
  // count sample orders (ids 0..count-1): a reply whose size grows with count
  list<Order> listOrders(1: i32 count) throws (1: BadRequest bad)
}
