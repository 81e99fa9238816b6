package protocols.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Schemas for gRPC calls without generated code: from a descriptor set file or from server reflection. */
final class GrpcSchemas {
  /** Bounds the reflection exchange: a file and its imports, asked one by one if the server leaves some out. */
  private static final int MAX_FILES = 256;
  private static final String CLASSPATH = "classpath:";

  private GrpcSchemas() {}

  static String checkFullName(String fullMethodName) {
    int slash = fullMethodName.lastIndexOf('/');
    if (slash <= 0 || slash == fullMethodName.length() - 1) {
      throw new IllegalArgumentException("a gRPC method's full name is package.Service/Method, got '"
          + fullMethodName + "'");
    }
    return fullMethodName;
  }

  /** The request's message type of a method made from a schema (its marshaller holds a prototype). */
  static Descriptors.Descriptor inputType(MethodDescriptor<?, ?> method) {
    Object prototype = ((MethodDescriptor.PrototypeMarshaller<?>) method.getRequestMarshaller()).getMessagePrototype();
    return ((com.google.protobuf.Message) prototype).getDescriptorForType();
  }

  private static final java.util.regex.Pattern UNKNOWN_FIELD =
      java.util.regex.Pattern.compile("Cannot find field: (.+) in message (\\S+)");

  /**
   * A JSON payload's field the message type does not have, as one line that lists the type's fields and
   * the nearest one (a misspelling); any other parse error as it is.
   */
  static InvalidProtocolBufferException unknownField(InvalidProtocolBufferException e, Descriptors.Descriptor type) {
    java.util.regex.Matcher m = UNKNOWN_FIELD.matcher(String.valueOf(e.getMessage()));
    Descriptors.Descriptor owner = m.matches() ? find(type, m.group(2), new java.util.HashSet<>()) : null;
    if (owner == null) {
      return e;
    }
    String field = m.group(1);
    List<String> names = owner.getFields().stream().map(Descriptors.FieldDescriptor::getJsonName).toList();
    String nearest = names.stream().min(java.util.Comparator.comparingInt(n -> distance(n.toLowerCase(),
        field.toLowerCase()))).filter(n -> distance(n.toLowerCase(), field.toLowerCase()) <= 2).orElse(null);
    return new InvalidProtocolBufferException("the JSON payload's " + owner.getFullName() + " has no field \""
        + field + "\"" + (nearest == null ? "" : " (did you mean \"" + nearest + "\"?)") + "; its fields: "
        + String.join(", ", names));
  }

  private static Descriptors.Descriptor find(Descriptors.Descriptor from, String fullName,
                                             java.util.Set<String> seen) {
    if (from.getFullName().equals(fullName)) {
      return from;
    }
    if (!seen.add(from.getFullName())) {
      return null;
    }
    for (Descriptors.FieldDescriptor f : from.getFields()) {
      if (f.getJavaType() == Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        Descriptors.Descriptor found = find(f.getMessageType(), fullName, seen);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** Levenshtein's edit distance. */
  private static int distance(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length()];
  }

  /** {@code file}: a path, or {@code classpath:name} for a resource (e.g. one in your contract's jar). */
  static MethodDescriptor<DynamicMessage, DynamicMessage> fromDescriptorSet(String file, String fullMethodName,
                                                                           MethodDescriptor.MethodType expected) {
    FileDescriptorSet set;
    try {
      set = FileDescriptorSet.parseFrom(read(file));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(file + " is not a descriptor set (protoc --descriptor_set_out): "
          + e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the descriptor set " + file + ": " + e);
    }
    return method(set.getFileList(), fullMethodName, expected, "descriptor set " + file);
  }

  private static byte[] read(String file) throws IOException {
    if (!file.startsWith(CLASSPATH)) {
      return Files.readAllBytes(Path.of(file));
    }
    String name = file.substring(CLASSPATH.length());
    try (java.io.InputStream in = GrpcSchemas.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("no resource " + name + " on the classpath");
      }
      return in.readAllBytes();
    }
  }

  /** Asks the server's reflection service (grpc.reflection.v1) for the file that defines the service. */
  static MethodDescriptor<DynamicMessage, DynamicMessage> fromReflection(Channel channel, String fullMethodName,
                                                                        MethodDescriptor.MethodType expected,
                                                                        long timeoutMillis) {
    String service = fullMethodName.substring(0, fullMethodName.lastIndexOf('/'));
    BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
    StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(channel)
        .withDeadlineAfter(Math.max(timeoutMillis, 5_000), TimeUnit.MILLISECONDS)
        .serverReflectionInfo(new StreamObserver<>() {
          @Override
          public void onNext(ServerReflectionResponse value) {
            replies.add(value);
          }

          @Override
          public void onError(Throwable t) {
            replies.add(t);
          }

          @Override
          public void onCompleted() {
            replies.add("completed");
          }
        });
    Map<String, FileDescriptorProto> files = new HashMap<>();
    try {
      requests.onNext(ServerReflectionRequest.newBuilder().setFileContainingSymbol(service).build());
      addFiles(next(replies, timeoutMillis, service), files);
      // Imports the server did not send with the file: ask for each by name.
      for (String missing = missing(files); missing != null && files.size() < MAX_FILES; missing = missing(files)) {
        requests.onNext(ServerReflectionRequest.newBuilder().setFileByFilename(missing).build());
        addFiles(next(replies, timeoutMillis, missing), files);
      }
      requests.onCompleted();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking the server's reflection service for " + service);
    }
    return method(new ArrayList<>(files.values()), fullMethodName, expected, "the server's reflection service");
  }

  private static ServerReflectionResponse next(BlockingQueue<Object> replies, long timeoutMillis, String asked)
      throws InterruptedException {
    Object reply = replies.poll(Math.max(timeoutMillis, 5_000), TimeUnit.MILLISECONDS);
    if (reply instanceof ServerReflectionResponse r) {
      if (r.hasErrorResponse()) {
        throw new IllegalArgumentException("the server's reflection service does not know " + asked + ": "
            + r.getErrorResponse().getErrorMessage());
      }
      return r;
    }
    if (reply instanceof Throwable t) {
      throw new IllegalStateException("server reflection failed (does the server offer grpc.reflection.v1?): "
          + io.grpc.Status.fromThrowable(t));
    }
    throw new IllegalStateException("no reply from the server's reflection service about " + asked);
  }

  private static void addFiles(ServerReflectionResponse r, Map<String, FileDescriptorProto> files) {
    for (ByteString bytes : r.getFileDescriptorResponse().getFileDescriptorProtoList()) {
      try {
        FileDescriptorProto f = FileDescriptorProto.parseFrom(bytes);
        files.put(f.getName(), f);
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("the server's reflection service sent a bad file descriptor: " + e.getMessage());
      }
    }
  }

  private static String missing(Map<String, FileDescriptorProto> files) {
    for (FileDescriptorProto f : files.values()) {
      for (String dep : f.getDependencyList()) {
        if (!files.containsKey(dep)) {
          return dep;
        }
      }
    }
    return null;
  }

  /** Builds the files (each after its imports) and finds the method, which must be of the {@code expected} kind. */
  private static MethodDescriptor<DynamicMessage, DynamicMessage> method(List<FileDescriptorProto> protos,
                                                                        String fullMethodName,
                                                                        MethodDescriptor.MethodType expected,
                                                                        String source) {
    Map<String, FileDescriptorProto> byName = new HashMap<>();
    protos.forEach(p -> byName.put(p.getName(), p));
    Map<String, Descriptors.FileDescriptor> built = new HashMap<>();
    String service = fullMethodName.substring(0, fullMethodName.lastIndexOf('/'));
    String methodName = fullMethodName.substring(fullMethodName.lastIndexOf('/') + 1);
    for (FileDescriptorProto p : protos) {
      Descriptors.ServiceDescriptor s = build(p.getName(), byName, built, source).findServiceByName(
          service.substring(service.lastIndexOf('.') + 1));
      if (s != null && s.getFullName().equals(service)) {
        Descriptors.MethodDescriptor m = s.findMethodByName(methodName);
        if (m == null) {
          throw new IllegalArgumentException(source + ": service " + service + " has no method " + methodName
              + "; it has " + s.getMethods().stream().map(Descriptors.MethodDescriptor::getName).toList());
        }
        MethodDescriptor.MethodType type = m.isClientStreaming()
            ? (m.isServerStreaming() ? MethodDescriptor.MethodType.BIDI_STREAMING : MethodDescriptor.MethodType.CLIENT_STREAMING)
            : (m.isServerStreaming() ? MethodDescriptor.MethodType.SERVER_STREAMING : MethodDescriptor.MethodType.UNARY);
        if (type != expected) {
          throw new IllegalArgumentException(fullMethodName + " is " + Kind.of(type).words() + ", not "
              + Kind.of(expected).words() + ": call it with grpc(name)." + Kind.of(type).dsl() + "(\"" + fullMethodName
              + "\")");
        }
        return MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
            .setType(type)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(service, methodName))
            .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(m.getInputType())))
            .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(m.getOutputType())))
            .build();
      }
    }
    throw new IllegalArgumentException(source + " has no service " + service);
  }

  /** A method kind as a user reads it, and the DSL method that calls it. */
  private record Kind(String words, String dsl) {
    static Kind of(MethodDescriptor.MethodType type) {
      return switch (type) {
        case UNARY -> new Kind("unary", "unary");
        case SERVER_STREAMING -> new Kind("a server stream", "serverStream");
        case CLIENT_STREAMING -> new Kind("a client stream", "clientStream");
        default -> new Kind("a bidirectional stream", "bidiStream");
      };
    }
  }

  private static Descriptors.FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
                                                  Map<String, Descriptors.FileDescriptor> built, String source) {
    Descriptors.FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    if (proto == null) {
      throw new IllegalArgumentException(source + " lacks " + name + " (protoc: add --include_imports)");
    }
    List<Descriptors.FileDescriptor> deps = new ArrayList<>();
    for (String dep : proto.getDependencyList()) {
      deps.add(build(dep, protos, built, source));
    }
    try {
      Descriptors.FileDescriptor f = Descriptors.FileDescriptor.buildFrom(proto, deps.toArray(Descriptors.FileDescriptor[]::new));
      built.put(name, f);
      return f;
    } catch (DescriptorValidationException e) {
      throw new IllegalArgumentException(source + ": " + name + " is not a valid schema: " + e.getMessage());
    }
  }
}
