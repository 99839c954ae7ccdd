package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OptionalDataException;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.codese.corpus.Corpus;
import org.codese.corpus.Types.Node;
import org.codese.corpus.Types.Point;
import org.codese.testkit.GraphWalker;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SocketPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JDK serialization data read by {@link CodeseInputStream}, against {@code ObjectInputStream} on
 * the same bytes: chapter 3 of the Java Object Serialization Specification (reading: 3.1 the {@code
 * ObjectInputStream} class and its hooks, 3.3 validation, 3.4 a class's own {@code readObject}),
 * chapter 4 (class descriptors: 4.1 {@code ObjectStreamClass}, {@code readClassDescriptor}),
 * chapter 6 (6.4 the stream format: magic and version) and the filter of JEP 290/415 ({@code
 * ObjectInputFilter}, section 3.1's {@code setObjectInputFilter}). Results are compared by
 * JDK-serializing both; exceptions by type and cause; hooks by the calls they saw.
 */
@Timeout(120)
class JdkFormatReadConformanceTest {

  /** An outcome of reading: the object or the exception, and the side effects counted. */
  private record Outcome(Object value, Throwable thrown, int effects) {
    String describe() {
      if (thrown != null) {
        return thrown.getClass().getName()
            + ": "
            + thrown.getMessage()
            + " (cause "
            + (thrown.getCause() == null ? null : thrown.getCause().getClass().getName())
            + ")";
      }
      try {
        return Arrays.toString(JdkBytes.serialize(value));
      } catch (IOException e) {
        return "not serializable: " + e;
      }
    }
  }

  private interface Opener {
    ObjectInputStream open(InputStream in) throws IOException;
  }

  private static Outcome read(byte[] bytes, Opener opener, IntSupplier effects) {
    int before = effects == null ? 0 : effects.getAsInt();
    try (ObjectInputStream in = opener.open(new ByteArrayInputStream(bytes))) {
      Object o = in.readObject();
      return new Outcome(o, null, (effects == null ? 0 : effects.getAsInt()) - before);
    } catch (Exception | Error e) {
      return new Outcome(null, e, (effects == null ? 0 : effects.getAsInt()) - before);
    }
  }

  static List<Corpus.Case> serializableCorpus() {
    List<Corpus.Case> cases = new ArrayList<>();
    for (Corpus.Case c : Corpus.all()) {
      if (c.jdk() == RoundTrip.Jdk.SERIALIZABLE) {
        cases.add(c);
      }
    }
    return cases;
  }

  /**
   * Section 3.1 ("ObjectInputStream ... reads data written by ObjectOutputStream"): every
   * serializable graph of the corpus, written by {@code ObjectOutputStream}, reads from {@code
   * CodeseInputStream} as from {@code ObjectInputStream}: the same graph (JDK bytes of both copies,
   * or where identity hashes order a container, the graph walker), the same side effects of the
   * classes' own methods, the same exception.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("serializableCorpus")
  void corpusWrittenByObjectOutputStreamReadsAsWithTheJdk(Corpus.Case c) throws Exception {
    byte[] bytes;
    try {
      bytes = JdkBytes.serialize(c.graph().get());
    } catch (IOException e) {
      assumeTrue(false, "ObjectOutputStream cannot write it: " + e);
      return;
    }
    Outcome jdk = read(bytes, ObjectInputStream::new, c.sideEffects());
    Outcome codese = read(bytes, CodeseInputStream::new, c.sideEffects());
    assertEquals(jdk.effects(), codese.effects(), "side effects");
    String expected = jdk.describe();
    String actual = codese.describe();
    if (!expected.equals(actual) && jdk.thrown() == null && codese.thrown() == null) {
      // containers ordered by identity hash codes serialize in another order: walk the graphs
      List<String> failures =
          GraphWalker.walk(jdk.value(), codese.value(), GraphWalker.Mode.JDK_REFERENCE, null)
              .failures();
      assertEquals(List.of(), failures);
      return;
    }
    assertEquals(expected, actual);
  }

  /** Writes a program of objects and primitives with {@code ObjectOutputStream}. */
  private static void writeProgram(ObjectOutputStream out) throws IOException {
    Node shared = new Node("shared");
    out.writeInt(1);
    out.writeObject(shared);
    out.writeObject(new ArrayList<>(List.of(shared, "s")));
    out.writeUTF("between");
    out.write(new byte[3000]);
    out.writeObject(shared);
    out.reset();
    out.writeObject(shared);
    out.writeUnshared(new Point(1, 2));
    out.writeLong(7L);
    out.writeObject(null);
    out.writeDouble(0.5);
    out.flush();
  }

  /** Reads the program back, logging what each call returns or throws. */
  private static String readProgram(ObjectInputStream in) {
    List<Object> log = new ArrayList<>();
    Object[] objects = new Object[8];
    try {
      log.add("available " + in.available());
      log.add(thrown(in::readObject));
      log.add(in.readInt());
      objects[0] = in.readObject();
      objects[1] = in.readObject();
      log.add(((List<?>) objects[1]).get(0) == objects[0]);
      log.add(in.readUTF());
      log.add("skipped " + in.skipBytes(5000));
      objects[2] = in.readObject();
      log.add(objects[2] == objects[0]);
      objects[3] = in.readObject();
      log.add(objects[3] == objects[0] ? "same after reset" : "new after reset");
      log.add(in.readUnshared());
      log.add(in.readLong());
      log.add(in.readObject());
      log.add(in.readDouble());
      log.add("available " + in.available());
      log.add(thrown(in::readObject));
      log.add(thrown(in::readInt));
      log.add(in.read());
    } catch (Exception e) {
      log.add(e);
    }
    return log.toString();
  }

  private interface Call {
    Object call() throws Exception;
  }

  private static String thrown(Call c) {
    try {
      return "returned " + c.call();
    } catch (OptionalDataException e) {
      return "OptionalDataException length " + e.length + " eof " + e.eof;
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  /**
   * Sections 3.1 and 6.4 over a real socket, whose stream has no {@code mark} (Codese reads the
   * magic number ahead through a {@code PushbackInputStream}): objects, sharing, primitives, a
   * reset, {@code readUnshared}, {@code available}, {@code skipBytes}, {@code
   * OptionalDataException} and the end of the data, as {@code ObjectInputStream} reads them.
   */
  @Test
  void aJdkStreamOverASocketReadsAsWithTheJdk() throws Exception {
    List<String> results = new ArrayList<>();
    for (Opener opener : List.<Opener>of(ObjectInputStream::new, CodeseInputStream::new)) {
      try (SocketPair pair = SocketPair.open()) {
        Future<Object> writer =
            pair.writer(
                () -> {
                  ObjectOutputStream out = new ObjectOutputStream(pair.out);
                  writeProgram(out);
                  pair.crashWriter();
                  return null;
                });
        SocketPair.join(writer);
        results.add(readProgram(opener.open(pair.in)));
      }
    }
    assertEquals(results.get(0), results.get(1));
    assertTrue(results.get(0).contains("OptionalDataException length 4"), results.get(0));
  }

  /** Same, from a stream that supports {@code mark} (read ahead with mark and reset). */
  @Test
  void aJdkStreamWithMarkReadsAsWithTheJdk() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      writeProgram(out);
    }
    String jdk = readProgram(new ObjectInputStream(new ByteArrayInputStream(b.toByteArray())));
    String codese = readProgram(new CodeseInputStream(new ByteArrayInputStream(b.toByteArray())));
    assertEquals(jdk, codese);
  }

  private static final ObjectInputFilter NO_POINT =
      ObjectInputFilter.Config.createFilter("!" + Point.class.getName());

  private static byte[] jdkBytes(Object o) throws IOException {
    return JdkBytes.serialize(o);
  }

  private static byte[] codeseBytes(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  /**
   * JEP 290 and section 3.1 ({@code setObjectInputFilter}): a filter that rejects a class rejects
   * it in JDK data read by {@code CodeseInputStream} exactly as {@code ObjectInputStream} does
   * (same exception and message), set on the stream or given in the options, and in Codese data
   * with the same exception type, {@link InvalidClassException}.
   */
  @Test
  void aFilterRejectsAClassInBothFormats() throws Exception {
    Object graph = new ArrayList<>(List.of("ok", new Point(1, 2)));
    byte[] jdkData = jdkBytes(graph);
    byte[] codeseData = codeseBytes(graph);
    Outcome jdk =
        read(
            jdkData,
            in -> {
              ObjectInputStream s = new ObjectInputStream(in);
              s.setObjectInputFilter(NO_POINT);
              return s;
            },
            null);
    assertInstanceOf(InvalidClassException.class, jdk.thrown());
    for (byte[] data : List.of(jdkData, codeseData)) {
      Outcome set =
          read(
              data,
              in -> {
                ObjectInputStream s = new CodeseInputStream(in);
                s.setObjectInputFilter(NO_POINT);
                return s;
              },
              null);
      Outcome option =
          read(
              data,
              in ->
                  new CodeseInputStream(
                      in, CodeseOptions.defaults().withObjectInputFilter(NO_POINT)),
              null);
      for (Outcome o : List.of(set, option)) {
        assertEquals(jdk.thrown().getClass(), o.thrown().getClass(), o.describe());
        if (data == jdkData) {
          assertEquals(jdk.describe(), o.describe());
        }
      }
    }
    // a filter that accepts reads both formats
    ObjectInputFilter accept = ObjectInputFilter.Config.createFilter("maxdepth=20");
    for (byte[] data : List.of(jdkData, codeseData)) {
      assertEquals(
          graph,
          read(
                  data,
                  in ->
                      new CodeseInputStream(
                          in, CodeseOptions.defaults().withObjectInputFilter(accept)),
                  null)
              .value());
    }
  }

  /**
   * Section 3.1: the JDK refuses {@code setObjectInputFilter} after an object was read ({@code
   * IllegalStateException}); for JDK data Codese throws it from the next {@code readObject}
   * instead, since {@code setObjectInputFilter} is final (README, differences).
   */
  @Test
  void aFilterSetAfterReadingIsRefused() throws Exception {
    byte[] data = jdkBytes("a");
    ObjectInputStream jdk = new ObjectInputStream(new ByteArrayInputStream(data));
    jdk.readObject();
    assertThrows(IllegalStateException.class, () -> jdk.setObjectInputFilter(NO_POINT));
    ObjectInputStream codese = new CodeseInputStream(new ByteArrayInputStream(data));
    codese.readObject();
    codese.setObjectInputFilter(NO_POINT);
    assertThrows(IllegalStateException.class, codese::readObject);
  }

  /** The child JVM's program for {@link #theJvmWideFilterRejectsInBothFormats}. */
  public static void main(String[] args) throws Exception {
    Object graph = new ArrayList<>(List.of(new Point(1, 2)));
    byte[] jdkData = jdkBytes(graph);
    byte[] codeseData = codeseBytes(graph);
    List<String> r = new ArrayList<>();
    r.add(read(jdkData, ObjectInputStream::new, null).describe());
    r.add(read(jdkData, CodeseInputStream::new, null).describe());
    Outcome c = read(codeseData, CodeseInputStream::new, null);
    r.add(c.thrown() == null ? "read" : c.thrown().getClass().getName());
    System.out.println(String.join("\n", r));
  }

  /**
   * JEP 290 ({@code -Djdk.serialFilter}, the JVM-wide filter): in a child JVM started with a filter
   * that rejects a class, {@code CodeseInputStream} rejects it in JDK data exactly as {@code
   * ObjectInputStream} does, and in Codese data with the same exception type.
   */
  @Test
  void theJvmWideFilterRejectsInBothFormats() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Djdk.serialFilter=!" + Point.class.getName(),
                "-cp",
                System.getProperty("java.class.path"),
                JdkFormatReadConformanceTest.class.getName())
            .redirectErrorStream(true)
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    String[] lines =
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split("\n");
    assertEquals(3, lines.length, String.join("\n", lines));
    assertTrue(lines[0].startsWith(InvalidClassException.class.getName()), lines[0]);
    assertEquals(lines[0], lines[1]);
    assertEquals(InvalidClassException.class.getName(), lines[2]);
  }

  /** A handler for a serializable proxy. */
  static final class Handler implements InvocationHandler, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      return method.getName().equals("get") ? "proxied" : null;
    }
  }

  /** A class that registers a validation and counts its calls. */
  static final class Validated implements Serializable, ObjectInputValidation {
    private static final long serialVersionUID = 1L;
    static final List<String> LOG = new ArrayList<>();
    final String name;

    Validated(String name) {
      this.name = name;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      in.registerValidation(this, name.length());
    }

    @Override
    public void validateObject() {
      LOG.add("validate " + name);
    }
  }

  /** A class whose own readObject fails. */
  static final class FailsOnRead implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) {
      throw new IllegalStateException("refused by readObject");
    }
  }

  /** Logs the hook calls of a stream subclass. */
  static final List<String> HOOKS = new ArrayList<>();

  /** A subclass of the JDK's stream overriding every hook. */
  static final class JdkHooked extends ObjectInputStream {
    JdkHooked(InputStream in) throws IOException {
      super(in);
      enableResolveObject(true);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return Hooks.resolveClass(desc, super::resolveClass);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      HOOKS.add("resolveProxyClass " + Arrays.toString(interfaces));
      return super.resolveProxyClass(interfaces);
    }

    @Override
    protected Object resolveObject(Object obj) {
      return Hooks.resolveObject(obj);
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      ObjectStreamClass d = super.readClassDescriptor();
      HOOKS.add("readClassDescriptor " + d.getName());
      return d;
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseHooked extends CodeseInputStream {
    CodeseHooked(InputStream in) throws IOException {
      super(in);
      enableResolveObject(true);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return Hooks.resolveClass(desc, super::resolveClass);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      HOOKS.add("resolveProxyClass " + Arrays.toString(interfaces));
      return super.resolveProxyClass(interfaces);
    }

    @Override
    protected Object resolveObject(Object obj) {
      return Hooks.resolveObject(obj);
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      ObjectStreamClass d = super.readClassDescriptor();
      HOOKS.add("readClassDescriptor " + d.getName());
      return d;
    }
  }

  /** The hook bodies both subclasses share. */
  static final class Hooks {
    interface Resolver {
      Class<?> resolve(ObjectStreamClass desc) throws IOException, ClassNotFoundException;
    }

    static Class<?> resolveClass(ObjectStreamClass desc, Resolver dflt)
        throws IOException, ClassNotFoundException {
      HOOKS.add("resolveClass " + desc.getName());
      if (desc.getName().endsWith("Missing")) {
        throw new ClassNotFoundException("no " + desc.getName());
      }
      return dflt.resolve(desc);
    }

    static Object resolveObject(Object obj) {
      HOOKS.add("resolveObject " + obj.getClass().getSimpleName());
      return "secret".equals(obj) ? "[redacted]" : obj;
    }
  }

  /** A class whose name the hooks refuse to resolve. */
  static final class Missing implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private static String readWithHooks(byte[] bytes, Opener opener) {
    HOOKS.clear();
    Validated.LOG.clear();
    List<Object> log = new ArrayList<>();
    try (ObjectInputStream in = opener.open(new ByteArrayInputStream(bytes))) {
      for (int i = 0; i < 4; i++) {
        log.add(thrownOrValue(in));
      }
    } catch (IOException e) {
      log.add(e);
    }
    return log + "\nhooks " + HOOKS + "\nvalidations " + Validated.LOG;
  }

  private static String thrownOrValue(ObjectInputStream in) {
    try {
      Object o = in.readObject();
      if (o instanceof Supplier<?> s) {
        return "proxy " + s.get();
      }
      return Arrays.toString(JdkBytes.serialize(o));
    } catch (Exception e) {
      return e.getClass().getName() + ": " + e.getMessage() + " cause " + e.getCause();
    }
  }

  /**
   * Section 3.1 (the subclass hooks {@code resolveClass}, {@code resolveProxyClass}, {@code
   * resolveObject} with {@code enableResolveObject}, 4.1's {@code readClassDescriptor}), 3.3
   * (validations run after the object is complete, by priority) and 3.4 (an exception from a
   * class's own {@code readObject} reaches the caller): a subclass of {@code CodeseInputStream}
   * reading JDK data sees the same calls, in the same order, as the same subclass of {@code
   * ObjectInputStream}, and the caller gets the same objects and exceptions ({@code
   * ClassNotFoundException} from a hook, the {@code RuntimeException} of a {@code readObject}).
   */
  @Test
  void subclassHooksSeeTheSameCallsOnJdkData() throws Exception {
    Object proxy =
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Supplier.class}, new Handler());
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(
          new ArrayList<>(
              List.of("secret", new Point(1, 2), new Validated("ab"), new Validated("abcd"))));
      out.writeObject(proxy);
      out.writeObject(new Missing());
      out.writeObject(new FailsOnRead());
    }
    String jdk = readWithHooks(b.toByteArray(), JdkHooked::new);
    assertEquals(jdk, readWithHooks(b.toByteArray(), CodeseHooked::new));
    assertTrue(
        jdk.contains("resolveObject String")
            && jdk.contains("resolveProxyClass")
            && jdk.contains("readClassDescriptor")
            && jdk.contains("ClassNotFoundException")
            && jdk.contains("refused by readObject")
            && jdk.contains("validate abcd, validate ab"),
        jdk);
  }

  /**
   * Section 3.1 and {@code ObjectOutputStream.writeObject} ("Exceptions are thrown for problems
   * with the OutputStream and for classes that should not be serialized ... the stream is left in
   * an unknown and unusable state"; the JDK writes the exception for the reader): a stream whose
   * writer failed on a non-serializable object reads back with {@link
   * java.io.WriteAbortedException}, as with the JDK.
   */
  @Test
  void anAbortedWriteReadsAsWithTheJdk() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ObjectOutputStream out = new ObjectOutputStream(b);
    out.writeObject("before");
    assertThrows(NotSerializableException.class, () -> out.writeObject(List.of(new Object())));
    out.writeObject("after");
    out.close();
    assertEquals(
        readWithHooks(b.toByteArray(), ObjectInputStream::new),
        readWithHooks(b.toByteArray(), CodeseInputStream::new));
  }

  /**
   * Section 6.4 ({@code stream: magic version contents}) and {@code ObjectInputStream}'s
   * constructor: a wrong version after the magic number, an empty stream, a cut header, an invalid
   * type code and data cut inside an object give the same exceptions, with the same messages.
   */
  @Test
  void damagedJdkDataFailsAsWithTheJdk() throws Exception {
    byte[] good = jdkBytes(new ArrayList<>(List.of(new Point(1, 2), "x")));
    byte[] badVersion = good.clone();
    badVersion[3] = 6;
    byte[] badType = good.clone();
    badType[4] = 0x01;
    List<byte[]> inputs =
        List.of(
            badVersion,
            new byte[0],
            Arrays.copyOf(good, 3),
            badType,
            Arrays.copyOf(good, good.length - 5),
            Arrays.copyOf(good, 2));
    for (byte[] input : inputs) {
      String jdk = read(input, ObjectInputStream::new, null).describe();
      String codese = read(input, CodeseInputStream::new, null).describe();
      if (input.length < 4) {
        // too short to tell the formats apart: both end with EOFException (Codese's message
        // names its own header)
        assertEquals(EOFException.class.getName(), jdk.substring(0, jdk.indexOf(':')), jdk);
        assertEquals(EOFException.class.getName(), codese.substring(0, codese.indexOf(':')));
      } else {
        assertEquals(jdk, codese, Arrays.toString(input));
      }
    }
  }

  /** A signing key admits signed Codese data only: JDK data is refused before it is read. */
  @Test
  void aSigningKeyRefusesJdkData() throws Exception {
    byte[] key = new byte[32];
    CodeseOptions signed = CodeseOptions.defaults().withSigningKey(key);
    AuthenticityException e =
        assertThrows(
            AuthenticityException.class,
            () -> new CodeseInputStream(new ByteArrayInputStream(jdkBytes("x")), signed));
    assertTrue(e.getMessage().contains("0xACED"), e.getMessage());
  }
}
