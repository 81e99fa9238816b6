package protocols.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static protocols.rpc.RpcChecks.field;

import com.google.protobuf.DynamicMessage;
import contract.grpc.Order;
import contract.grpc.OrderList;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** field(path) on each framework's replies: the check the docs' generic examples use. */
class FieldCheckTest {
  private static final Session SESSION = io.gatling.core.session.Session$.MODULE$.apply("s", 1L, null);

  private static RpcCheck.Result check(RpcChecks.ValueCheck<Object, Object> c, Object reply) {
    return c.check(null, reply, RpcCheck.OK, SESSION);
  }

  private static boolean ok(RpcCheck.Result r) {
    return r.failure() == null;
  }

  @Test
  void aGenericDubboReplysMapsAndListsAreReadByPath() {
    Map<String, Object> reply = Map.of("class", "com.example.Receipt", "orderId", 42L,
        "items", List.of(Map.of("sku", "A1", "quantity", 2), Map.of("sku", "B2", "quantity", 1)));
    assertTrue(ok(check(field("orderId").is(42), reply)), "an int 42 matches a long 42");
    assertTrue(ok(check(field("items[1].sku").is("B2"), reply)));
    assertTrue(ok(check(field("items[0].quantity").is(2L), reply)));
    RpcCheck.Result typo = check(field("items[0].skux").is("A1"), reply);
    assertTrue(typo.failure().startsWith("field items[0].skux: no 'skux' in items[0] (keys "), typo.failure());
    assertEquals("field items[5].sku: items has 2 elements, no [5]", check(field("items[5].sku").is("A1"), reply)
        .failure());
    assertEquals("field orderId is 42, expected 43", check(field("orderId").is(43), reply).failure());
  }

  @Test
  void aProtobufMessageIsReadByProtoOrJsonNameAndItsDynamicFormToo() throws Exception {
    OrderList list = OrderList.newBuilder().addOrders(Order.newBuilder().setOrderId(7).setName("Zhang San")).build();
    DynamicMessage dynamic = DynamicMessage.parseFrom(OrderList.getDescriptor(), list.toByteArray());
    for (Object reply : List.of(list, dynamic)) {
      assertTrue(ok(check(field("orders[0].order_id").is(7), reply)), reply.getClass().getSimpleName());
      assertTrue(ok(check(field("orders[0].orderId").is(7), reply)), "the JSON name");
      assertTrue(ok(check(field("orders[0].name").saveAs("who"), reply)));
    }
    RpcCheck.Result wrong = check(field("orders[0].nmae").is("x"), list);
    assertTrue(wrong.failure().contains("no 'nmae' in orders[0] (Order's fields [order_id, phone, name"),
        wrong.failure());
  }

  @Test
  void structsAndObjectsAreReadByPublicFieldGetterOrAccessor() {
    contract.thrift.Order thrift = new contract.thrift.Order();
    thrift.orderId = 5;
    contract.zeroc.Order ice = new contract.zeroc.Order();
    ice.orderId = 5;
    contract.pojo.Order pojo = new contract.pojo.Order();
    pojo.setOrderId(5);
    record Receipt(long orderId, Thread.State state) {
    }
    for (Object reply : List.of(thrift, ice, pojo, new Receipt(5, Thread.State.NEW))) {
      assertTrue(ok(check(field("orderId").is(5), reply)), reply.getClass().getName());
    }
    assertTrue(ok(check(field("state").is("NEW"), new Receipt(5, Thread.State.NEW))), "an enum reads as its name");
    assertTrue(check(field("orderId.x").is(1), thrift).failure().startsWith("field orderId.x: no 'x' in orderId"));
  }

  @Test
  void aMalformedPathIsRefusedWhenTheSimulationIsBuilt() {
    for (String bad : List.of("", "a..b", "items[x]", "a.", "1abc")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> field(bad), bad);
      assertTrue(e.getMessage().startsWith("field path '" + bad + "'"), e.getMessage());
    }
  }
}
