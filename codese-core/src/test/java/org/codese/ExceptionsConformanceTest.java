package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectOutput;
import java.io.Serializable;
import java.util.List;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Exceptions as the Java Object Serialization Specification and {@code ObjectInputStream} throw
 * them (JOSS §3.1 "The ObjectInputStream Class", §3.3 "The ObjectInputValidation Interface", §3.4
 * "The readObject Method", §3.5 "The readExternal Method", §3.6 "The readResolve Method", §1.13
 * "Serialization of Records", Appendix B "Exceptions In Serialization"). Every program runs on the
 * JDK's streams and on Codese's, which must end the same way: the same exception class and message,
 * the same causes, the same hook calls ({@link SideBySide}).
 *
 * <p>The non-stream API ({@link Codese#fromBytes}) keeps its documented contract: what the JDK
 * throws as an {@code IOException}, it throws too; anything else arrives as the cause of a {@link
 * RestoreException}. {@link #fromBytesWrapsWhatTheJdkDoesNotThrowAsIoException} compares that with
 * the JDK as well.
 */
class ExceptionsConformanceTest {

  /** While set, the test classes' constructors and record constructors refuse to run. */
  static volatile boolean closed;

  @AfterEach
  void open() {
    closed = false;
  }

  /** Makes the exception a hook throws; {@code what} names it. */
  static Throwable make(String what) {
    return switch (what) {
      case "runtime" -> new IllegalStateException("refused by " + what);
      case "objectstream" -> new InvalidObjectException("invalid state");
      case "io" -> new java.io.FileNotFoundException("data file gone");
      case "cnf" -> new ClassNotFoundException("com.example.Missing");
      case "error" -> new AssertionError("broken invariant");
      case "checked" -> new java.util.concurrent.TimeoutException("too slow");
      default -> throw new IllegalArgumentException(what);
    };
  }

  @SuppressWarnings("unchecked")
  static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /** Its {@code readObject} throws what {@link #what} names. */
  static final class ReadObjectThrows implements Serializable {
    private static final long serialVersionUID = 1L;
    final String what;

    ReadObjectThrows(String what) {
      this.what = what;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      SideBySide.log("readObject " + what);
      throw ExceptionsConformanceTest.<RuntimeException>sneaky(make(what));
    }
  }

  /** Its {@code readExternal} throws what it reads. */
  public static final class ReadExternalThrows implements Externalizable {
    private static final long serialVersionUID = 1L;
    String what;

    public ReadExternalThrows() {}

    ReadExternalThrows(String what) {
      this.what = what;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeUTF(what);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
      what = in.readUTF();
      SideBySide.log("readExternal " + what);
      throw ExceptionsConformanceTest.<RuntimeException>sneaky(make(what));
    }
  }

  /** Its {@code readResolve} throws what {@link #what} names. */
  static final class ReadResolveThrows implements Serializable {
    private static final long serialVersionUID = 1L;
    final String what;

    ReadResolveThrows(String what) {
      this.what = what;
    }

    private Object readResolve() {
      SideBySide.log("readResolve " + what);
      throw ExceptionsConformanceTest.<RuntimeException>sneaky(make(what));
    }
  }

  /** Registers a validation that throws what {@link #what} names. */
  static final class ValidationThrows implements Serializable, ObjectInputValidation {
    private static final long serialVersionUID = 1L;
    final String what;

    ValidationThrows(String what) {
      this.what = what;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      in.registerValidation(this, 0);
      SideBySide.log("readObject");
    }

    @Override
    public void validateObject() throws InvalidObjectException {
      SideBySide.log("validateObject " + what);
      throw ExceptionsConformanceTest.<InvalidObjectException>sneaky(make(what));
    }
  }

  /** A record whose canonical constructor refuses negative values while {@link #closed}. */
  record Positive(int v, String label) implements Serializable {
    Positive {
      if (closed && v < 0) {
        throw new IllegalArgumentException("negative: " + v);
      }
    }
  }

  /** A record whose canonical constructor throws an exception without a message. */
  record Silent(int v) implements Serializable {
    Silent {
      if (closed) {
        throw new UnsupportedOperationException();
      }
    }
  }

  /** The first non-serializable superclass, whose no-arg constructor refuses while closed. */
  static class FragileBase {
    FragileBase() {
      if (closed) {
        SideBySide.log("FragileBase()");
        throw new IllegalStateException("no instances now");
      }
    }
  }

  static final class OnFragileBase extends FragileBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int x = 3;
  }

  /** As {@link FragileBase}, with an {@code Error}. */
  static class ErrorBase {
    ErrorBase() {
      if (closed) {
        throw new AssertionError("constructor failed");
      }
    }
  }

  static final class OnErrorBase extends ErrorBase implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** An {@code Externalizable} class whose public constructor refuses while closed. */
  public static final class FragileExternal implements Externalizable {
    private static final long serialVersionUID = 1L;

    public FragileExternal() {
      if (closed) {
        throw new IllegalStateException("not now");
      }
    }

    @Override
    public void writeExternal(ObjectOutput out) {}

    @Override
    public void readExternal(ObjectInput in) {}
  }

  /** Holds any object, so that a failing object can be nested. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    final Object value;

    Holder(Object value) {
      this.value = value;
    }
  }

  /** Reads one object while {@link #closed}. */
  private static final SideBySide.Reader READ_CLOSED =
      (in, facts) -> {
        closed = true;
        try {
          facts.add("read " + in.readObject());
        } finally {
          closed = false;
        }
      };

  /** Writes an int, {@code obj} and a string; reads the int, then the object. */
  private static Outcome readsIntThenObject(Object obj) throws Exception {
    return SideBySide.same(
        out -> {
          out.writeInt(7);
          out.writeObject(obj);
          out.writeObject("after");
        },
        (in, facts) -> {
          facts.add("int " + in.readInt());
          facts.add("read " + in.readObject());
        });
  }

  /**
   * §3.4 and {@code ObjectInputStream.readObject}'s Javadoc: "Exceptions are thrown for problems
   * with the stream or for classes that should not be deserialized"; what a class's own {@code
   * readObject} throws reaches the caller: {@code IOException}s, {@code ClassNotFoundException}s,
   * {@code RuntimeException}s and {@code Error}s as they are, other checked exceptions inside an
   * {@code IOException("unexpected exception type")}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"runtime", "objectstream", "io", "cnf", "error", "checked"})
  void readObjectExceptionsReachTheCaller(String what) throws Exception {
    Outcome jdk = readsIntThenObject(new ReadObjectThrows(what));
    assertNotEquals("none", jdk.thrown());
    assertEquals(List.of("readObject " + what), jdk.log());
  }

  /** §3.4, as above, for an object nested in another. */
  @ParameterizedTest
  @ValueSource(strings = {"runtime", "cnf", "checked"})
  void readObjectExceptionsOfNestedObjectsReachTheCaller(String what) throws Exception {
    Outcome jdk = readsIntThenObject(new Holder(new ReadObjectThrows(what)));
    assertNotEquals("none", jdk.thrown());
  }

  /** §3.5: {@code readExternal}'s exceptions reach the caller as they are. */
  @ParameterizedTest
  @ValueSource(strings = {"runtime", "objectstream", "io", "cnf", "error", "checked"})
  void readExternalExceptionsReachTheCaller(String what) throws Exception {
    Outcome jdk = readsIntThenObject(new ReadExternalThrows(what));
    assertNotEquals("none", jdk.thrown());
    assertEquals(List.of("readExternal " + what), jdk.log());
  }

  /**
   * §3.6: {@code readResolve} "throws ObjectStreamException"; those, {@code RuntimeException}s and
   * {@code Error}s reach the caller as they are, anything else (even an {@code IOException} or a
   * {@code ClassNotFoundException}) inside an {@code IOException("unexpected exception type")}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"runtime", "objectstream", "io", "cnf", "error", "checked"})
  void readResolveExceptionsReachTheCaller(String what) throws Exception {
    Outcome jdk = readsIntThenObject(new ReadResolveThrows(what));
    assertNotEquals("none", jdk.thrown());
    assertEquals(List.of("readResolve " + what), jdk.log());
  }

  /**
   * §3.3: validations run once the graph is complete; an {@code InvalidObjectException} from {@code
   * validateObject} reaches the caller, and so does a {@code RuntimeException}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"objectstream", "runtime", "error"})
  void validationExceptionsReachTheCaller(String what) throws Exception {
    Outcome jdk = readsIntThenObject(new ValidationThrows(what));
    assertNotEquals("none", jdk.thrown());
    assertEquals(List.of("readObject", "validateObject " + what), jdk.log());
  }

  /**
   * §1.13: a record is made by its canonical constructor; when that throws, {@code
   * ObjectInputStream} throws {@code InvalidObjectException} with the exception's message and the
   * exception as cause.
   */
  @Test
  void aRecordWhoseConstructorThrowsIsAnInvalidObjectException() throws Exception {
    Outcome jdk =
        SideBySide.same(out -> out.writeObject(new Positive(-1, "minus one")), READ_CLOSED);
    assertTrue(
        jdk.thrown().startsWith(InvalidObjectException.class.getName() + ": negative: -1"),
        jdk.thrown());
    SideBySide.same(out -> out.writeObject(new Holder(new Silent(1))), READ_CLOSED);
  }

  /**
   * §3.1 and Appendix B ({@code InvalidClassException}: "the class does not have an accessible
   * no-arg constructor" and problems creating instances): when the no-arg constructor of the first
   * non-serializable superclass throws, {@code ObjectInputStream} throws {@code
   * InvalidClassException(class, "unable to create instance")} whose cause is the {@code
   * InvocationTargetException}. From JDK 24 on an {@code Error} from that constructor leaves as it
   * is; the JDK 17 this runs on may wrap it, and Codese must do as the JDK it runs on.
   */
  @Test
  void aConstructorThatThrowsIsUnableToCreateInstance() throws Exception {
    Outcome jdk = SideBySide.same(out -> out.writeObject(new OnFragileBase()), READ_CLOSED);
    assertTrue(
        jdk.thrown()
            .startsWith(
                InvalidClassException.class.getName()
                    + ": "
                    + OnFragileBase.class.getName()
                    + "; unable to create instance"),
        jdk.thrown());
    assertEquals(List.of("FragileBase()"), jdk.log());
    SideBySide.same(out -> out.writeObject(new Holder(new OnErrorBase())), READ_CLOSED);
    SideBySide.same(out -> out.writeObject(new FragileExternal()), READ_CLOSED);
  }

  /** A non-serializable superclass whose no-arg constructor always runs. */
  static class SoundBase {}

  static final class OnSoundBase extends SoundBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int y = 4;
  }

  /** An exception without a stack trace, as a preallocated one may be. */
  static final class Traceless extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Traceless() {
      super("no trace", null, false, false);
    }
  }

  /** As {@link FragileBase}, with an exception that does not say which constructor threw it. */
  static class TracelessBase {
    TracelessBase() {
      if (closed) {
        throw new Traceless();
      }
    }
  }

  static final class OnTracelessBase extends TracelessBase implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Appendix B as {@code ObjectInputStream.readOrdinaryObject} words it: "unable to create
   * instance" names the class of the object whose creation failed, also when the graph creates
   * objects of other classes before it (by {@code Object}'s constructor, or by a non-serializable
   * superclass's constructor that runs), and when the exception has no stack trace that tells which
   * constructor threw.
   */
  @Test
  void unableToCreateInstanceNamesTheClassWhoseCreationFailed() throws Exception {
    Object[] graphs = {
      new Object[] {new Holder("first"), new OnSoundBase(), new OnFragileBase()},
      new Object[] {new Holder("first"), new OnTracelessBase()}
    };
    Class<?>[] failing = {OnFragileBase.class, OnTracelessBase.class};
    for (int i = 0; i < graphs.length; i++) {
      Object graph = graphs[i];
      Outcome jdk = SideBySide.same(out -> out.writeObject(graph), READ_CLOSED);
      assertTrue(
          jdk.thrown()
              .startsWith(
                  InvalidClassException.class.getName()
                      + ": "
                      + failing[i].getName()
                      + "; unable to create instance"),
          jdk.thrown());
    }
  }

  /** The first non-serializable superclass has no no-arg constructor. */
  static class NoNoArgBase {
    NoNoArgBase(int ignored) {}
  }

  static final class OnNoNoArgBase extends NoNoArgBase implements Serializable {
    private static final long serialVersionUID = 1L;

    OnNoNoArgBase() {
      super(1);
    }
  }

  /**
   * Appendix B: {@code InvalidClassException} when "the class does not have an accessible no-arg
   * constructor"; {@code ObjectInputStream} words it "no valid constructor". Codese refuses the
   * class when it loads the segment, with {@link ClassNotAllowedException} (an {@code
   * InvalidClassException} for the same class whose message starts the same way).
   */
  @Test
  void aClassWithoutValidConstructorIsAnInvalidClassException() throws Exception {
    SideBySide.Reader reader =
        (in, facts) -> {
          facts.add("int " + in.readInt());
          try {
            in.readObject();
          } catch (InvalidClassException e) {
            facts.add("InvalidClassException for " + e.classname);
            facts.add(
                "message starts "
                    + e.getMessage()
                        .startsWith(OnNoNoArgBase.class.getName() + "; no valid constructor"));
          }
        };
    SideBySide.Writer writer =
        out -> {
          out.writeInt(5);
          out.writeObject(new OnNoNoArgBase());
        };
    Outcome jdk = SideBySide.same(writer, reader);
    assertEquals(
        List.of(
            "int 5",
            "InvalidClassException for " + OnNoNoArgBase.class.getName(),
            "message starts true"),
        jdk.facts());
  }

  /**
   * §3.1: "ClassNotFoundException: the class of a serialized object cannot be found", thrown by
   * {@code readObject} (the class loader's own exception, whose message is the class name);
   * primitive data before the object stays readable. The class here exists only in a loader the
   * reading side does not see.
   */
  @Test
  void aClassThatCannotBeFoundIsAClassNotFoundException() throws Exception {
    Object vanished = vanishedInstance();
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeInt(11);
              out.writeObject(vanished);
            },
            (in, facts) -> {
              facts.add("int " + in.readInt());
              facts.add("read " + in.readObject());
            });
    assertEquals(ClassNotFoundException.class.getName() + ": " + VANISHED, jdk.thrown());
    jdk =
        SideBySide.same(
            out -> out.writeObject(new Holder(vanished)),
            (in, facts) -> facts.add("read " + in.readObject()));
    assertEquals(ClassNotFoundException.class.getName() + ": " + VANISHED, jdk.thrown());
  }

  /**
   * The non-stream API: an {@code IOException} the JDK throws arrives as it is; anything else the
   * JDK lets through from a class's own code arrives as the cause of a {@link RestoreException}
   * (the documented contract of {@link Codese#fromBytes} and {@link Snapshot#restore}).
   */
  @ParameterizedTest
  @ValueSource(strings = {"runtime", "objectstream", "io", "cnf", "error", "checked"})
  void fromBytesWrapsWhatTheJdkDoesNotThrowAsIoException(String what) throws Exception {
    for (Object graph :
        List.of(
            new ReadObjectThrows(what),
            new ReadResolveThrows(what),
            new ReadExternalThrows(what),
            new Holder(new ValidationThrows(what)))) {
      if (graph instanceof Holder
          && (what.equals("io") || what.equals("cnf") || what.equals("checked"))) {
        continue; // validateObject declares InvalidObjectException only
      }
      Throwable jdk =
          assertThrows(
              Throwable.class,
              () ->
                  new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(graph)))
                      .readObject());
      byte[] snapshot = Codese.toBytes(graph);
      Throwable codese = assertThrows(Throwable.class, () -> Codese.fromBytes(snapshot));
      String expected =
          jdk instanceof IOException
              ? SideBySide.describe(jdk)
              : RestoreException.class.getName()
                  + ": restore failed: "
                  + jdk
                  + " <- caused by "
                  + SideBySide.describe(jdk);
      assertEquals(expected, SideBySide.describe(codese), graph.getClass().getSimpleName());
    }
  }

  /** The record and constructor cases through {@link Codese#fromBytes}: the JDK's IOExceptions. */
  @Test
  void fromBytesThrowsTheJdksExceptionsForRecordsAndConstructors() throws Exception {
    for (Object graph :
        List.of(new Positive(-2, "x"), new Holder(new OnFragileBase()), new FragileExternal())) {
      byte[] jdkBytes = JdkBytes.serialize(graph);
      byte[] snapshot = Codese.toBytes(graph);
      closed = true;
      try {
        Throwable jdk =
            assertThrows(
                IOException.class,
                () -> new ObjectInputStream(new ByteArrayInputStream(jdkBytes)).readObject());
        Throwable codese = assertThrows(IOException.class, () -> Codese.fromBytes(snapshot));
        assertEquals(SideBySide.describe(jdk), SideBySide.describe(codese));
      } finally {
        closed = false;
      }
    }
  }

  // ------------------------------------------------------------------ a class no one can find

  private static final String VANISHED = "org.codese.vanished.Vanished";

  /** An instance of a {@code Serializable} class defined only in a throwaway class loader. */
  private static Object vanishedInstance() throws Exception {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
    String name = VANISHED.replace('.', '/');
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC,
        name,
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(Opcodes.ACC_PUBLIC, "n", "I", null, null).visitEnd();
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitIntInsn(Opcodes.BIPUSH, 42);
    mv.visitFieldInsn(Opcodes.PUTFIELD, name, "n", "I");
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    byte[] bytes = cw.toByteArray();
    ClassLoader loader =
        new ClassLoader(ExceptionsConformanceTest.class.getClassLoader()) {
          @Override
          protected Class<?> findClass(String n) throws ClassNotFoundException {
            if (n.equals(VANISHED)) {
              return defineClass(n, bytes, 0, bytes.length);
            }
            throw new ClassNotFoundException(n);
          }
        };
    return loader.loadClass(VANISHED).getConstructor().newInstance();
  }
}
