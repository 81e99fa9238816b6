package protocols.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.DynamicMessage;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import protocols.rpc.Errors;
import protocols.rpc.RpcMethod;

/** A JSON payload's mistakes, named in the KO before anything is sent. */
class GrpcJsonPayloadTest {
  private static final RpcMethod<GrpcClient, String, DynamicMessage> HELLO = GrpcDsl.grpc("hello")
      .unary("rpcloadlab.MobileService/Hello").fromDescriptorSet("classpath:descriptor-sets/order.desc").calls();

  private static String koOf(String json) {
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> HELLO.callAsync(null, json).toCompletableFuture().get());
    return Errors.oneLine(Errors.unwrap(e));
  }

  @Test
  void aMisspeltFieldIsNamedWithTheNearestAndTheTypesFields() {
    assertEquals("InvalidProtocolBufferException: the JSON payload's rpcloadlab.Order has no field \"ordrId\" (did you"
        + " mean \"orderId\"?); its fields: orderId, phone, name, orderNum, orderDate, ticketType, amount, orderStatus",
        koOf("{\"ordrId\": 7, \"name\": \"n\"}"));
    assertEquals("InvalidProtocolBufferException: the JSON payload's rpcloadlab.Order has no field \"colour\"; its"
        + " fields: orderId, phone, name, orderNum, orderDate, ticketType, amount, orderStatus", koOf("{\"colour\": 1}"));
  }

  @Test
  void aValueOfTheWrongTypeIsProtobufsOwnLine() {
    assertEquals("InvalidProtocolBufferException: Not an int64 value: \"seven\"", koOf("{\"orderId\": \"seven\"}"));
  }
}
