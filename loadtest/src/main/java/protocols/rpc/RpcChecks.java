package protocols.rpc;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import scala.Function1;

/** The checks every framework's calls take: {@code import static protocols.rpc.RpcChecks.*}. */
public final class RpcChecks {
  /** The code of a call that succeeded, for {@link #code()}. */
  public static final String OK = RpcCheck.OK;

  private RpcChecks() {}

  /** The echo benchmark's check: the reply equals the request, field by field. */
  public static <T> RpcCheck<T, T> echo() {
    return (request, reply, code, session) -> Objects.equals(request, reply) ? RpcCheck.Result.ok(session)
        : RpcCheck.Result.fail("echo mismatch: reply differs from request");
  }

  /** A value taken from the reply: {@code response(OrderList::getOrdersCount).is(5).saveAs("n")}. */
  public static <Resp, T> ValueCheck<Resp, T> response(Function<Resp, T> extract) {
    Objects.requireNonNull(extract, "extract");
    return new ValueCheck<>("response", false, (reply, code) -> extract.apply(reply), null, null);
  }

  /**
   * A field of the reply by name or path, whatever its type: a generic call's maps, gRPC's {@code
   * DynamicMessage}, a struct or an object: {@code field("symbol").is("ACME")}, {@code field("items[0].sku")}.
   * Numbers compare by value ({@code is(2)} matches a long 2), enums as their names; a path that does not
   * fit the reply fails the check with what the reply has there.
   */
  public static ValueCheck<Object, Object> field(String path) {
    FieldPath p = FieldPath.parse(path);
    return new ValueCheck<>("field " + p, false, (reply, code) -> p.read(reply), null, null);
  }

  /**
   * The call's code: {@link RpcCheck#OK} or the framework's error code (e.g. {@code grpc NOT_FOUND},
   * {@code dubbo biz}). With a code check on a request, a failed call is judged by the checks instead
   * of being a KO by itself, so an expected error can be an OK.
   */
  public static ValueCheck<Object, String> code() {
    return new ValueCheck<>("code", true, (reply, code) -> code, null, null);
  }

  /**
   * A check on one value of the outcome, with at most one validation and one {@code saveAs}. Immutable.
   *
   * @param <Resp> the reply type
   * @param <T> the value's type
   */
  public static final class ValueCheck<Resp, T> implements RpcCheck<Object, Resp> {
    private final String what;
    private final boolean judgesErrors;
    private final Extractor<Resp, T> extract;
    private final Validator<T> validator;
    private final String saveAs;

    private ValueCheck(String what, boolean judgesErrors, Extractor<Resp, T> extract, Validator<T> validator,
                       String saveAs) {
      this.what = what;
      this.judgesErrors = judgesErrors;
      this.extract = extract;
      this.validator = validator;
      this.saveAs = saveAs;
    }

    private ValueCheck<Resp, T> validate(Validator<T> v) {
      return new ValueCheck<>(what, judgesErrors, extract, v, saveAs);
    }

    /** The value equals {@code expected}. */
    public ValueCheck<Resp, T> is(T expected) {
      return validate((value, session) -> same(value, expected) ? null
          : what + " is " + value + ", expected " + expected);
    }

    /** The value equals what the function of the session returns. */
    public ValueCheck<Resp, T> is(Function<io.gatling.javaapi.core.Session, T> expected) {
      return validate((value, session) -> {
        T e = expected.apply(new io.gatling.javaapi.core.Session(session));
        return same(value, e) ? null : what + " is " + value + ", expected " + e;
      });
    }

    /** The value's text equals the Gatling EL expression's, e.g. {@code "#{orderId}"}. */
    public ValueCheck<Resp, T> isEL(String expression) {
      Function1<io.gatling.core.session.Session, Validation<String>> el = Expressions.toStringExpression(expression);
      return validate((value, session) -> {
        Validation<String> v = el.apply(session);
        if ((Object) v instanceof Failure f) {
          return what + ": " + f.message();
        }
        String e = ((Success<String>) v).value();
        return Objects.equals(String.valueOf(value), e) ? null : what + " is " + value + ", expected " + e;
      });
    }

    /** The value is not {@code unexpected}. */
    public ValueCheck<Resp, T> not(T unexpected) {
      return validate((value, session) -> same(value, unexpected) ? what + " is " + value : null);
    }

    /** The value passes {@code test}; {@code description} says what it should be, for the KO message. */
    public ValueCheck<Resp, T> satisfies(String description, Predicate<T> test) {
      return validate((value, session) -> test.test(value) ? null
          : what + " is " + value + ", expected " + description);
    }

    /** Saves the value into the session under {@code key}, for later requests ({@code "#{key}"}). */
    public ValueCheck<Resp, T> saveAs(String key) {
      return new ValueCheck<>(what, judgesErrors, extract, validator, Objects.requireNonNull(key, "key"));
    }

    @Override
    public boolean judgesErrors() {
      return judgesErrors;
    }

    @Override
    public Result check(Object request, Resp reply, String code, io.gatling.core.session.Session session) {
      if (!judgesErrors && !OK.equals(code)) {
        return Result.fail(what + ": no reply (" + code + ")");
      }
      T value;
      try {
        value = extract.apply(reply, code);
      } catch (IllegalArgumentException e) { // a field path that does not fit the reply
        return Result.fail(e.getMessage());
      }
      if (validator == null && value == null) {
        return Result.fail(what + " found nothing (null)");
      }
      String failure = validator == null ? null : validator.check(value, session);
      if (failure != null) {
        return Result.fail(failure);
      }
      return Result.ok(saveAs == null || value == null ? session : session.set(saveAs, value));
    }
  }

  /** Equal, numbers by value whatever their boxes: a JSON or generic reply's 2 may be an int or a long. */
  static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && !(x instanceof Double || x instanceof Float)
        && !(y instanceof Double || y instanceof Float)) {
      return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return Objects.equals(a, b);
  }

  @FunctionalInterface
  private interface Extractor<Resp, T> {
    T apply(Resp reply, String code);
  }

  @FunctionalInterface
  private interface Validator<T> {
    String check(T value, io.gatling.core.session.Session session);
  }
}
