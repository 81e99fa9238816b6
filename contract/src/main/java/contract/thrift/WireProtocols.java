package contract.thrift;

import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/** Thrift's wire protocols both sides choose from; client and server must agree. */
public final class WireProtocols {
  public static final String DEFAULT = "binary";
  public static final List<String> SUPPORTED = List.of("binary", "compact");

  private WireProtocols() {}

  /** binary (Thrift's default) or compact. */
  public static TProtocolFactory factory(String name) {
    return switch (name) {
      case "binary" -> new TBinaryProtocol.Factory();
      case "compact" -> new TCompactProtocol.Factory();
      default -> throw new IllegalArgumentException("Thrift protocol must be binary or compact, got '" + name + "'");
    };
  }
}
