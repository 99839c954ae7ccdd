package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.codese.testkit.Box;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.codese.testkit.SideBySide.Streams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Chapter 4 of the Java Object Serialization Specification, "Class Descriptors", as the drop-in
 * streams claim it: §4.1 "The ObjectStreamClass Class" ({@code lookup}/{@code lookupAny} of
 * restored objects, {@code ObjectStreamClass} and {@code Class} objects as values, enums, arrays,
 * records), §4.3 "Serialized Form" (which fields a class writes, {@code serialPersistentFields}),
 * §4.4 "The ObjectStreamField Class" and §4.6 "Stream Unique Identifiers" (declared and computed
 * {@code serialVersionUID}, a mismatch). §4.2 (dynamic proxy class descriptors) belongs to issue
 * 10. Every program runs on the JDK's streams and on Codese's ({@link SideBySide}), which must
 * observe the same: the JDK's serial form of what was restored, which objects are the same
 * instance, the descriptors, and exceptions by type and cause type.
 */
@Timeout(120)
class ClassDescriptorsConformanceTest {
  /** Declares its serialVersionUID; fields of several kinds. */
  static final class Declared implements Serializable {
    private static final long serialVersionUID = 42L;
    int i = 1;
    long l = 2;
    String s = "three";
    int[] a = {4};
    transient int skipped = 5;
    static int shared = 6;
  }

  /** Declares no serialVersionUID: it is computed. */
  static final class Computed implements Serializable {
    @SuppressWarnings("serial")
    char c = 'c';

    @SuppressWarnings("serial")
    Box box = new Box(1);
  }

  /** Not serializable; its subclass is. */
  static class NotSerializableBase {
    int hidden = 7;
  }

  static final class OnPlainBase extends NotSerializableBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int shown = 8;
  }

  /** Writes a and c only: b is not serializable state. */
  static final class Restricted implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("a", int.class), new ObjectStreamField("c", String.class)
    };
    int a = 1;
    int b = 2;
    String c = "c";
  }

  /**
   * Declares entries no field backs: {@code ghost} (no such field) and {@code mistyped} (a field of
   * another type); writes them with {@code putFields}, or with {@code defaultWriteObject} when
   * {@link #put} is false.
   */
  static final class Unbacked implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("real", int.class), new ObjectStreamField("ghost", String.class),
      new ObjectStreamField("mistyped", long.class), new ObjectStreamField("put", boolean.class)
    };
    final boolean put;
    int real = 3;
    int mistyped = 4;

    Unbacked(boolean put) {
      this.put = put;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      if (put) {
        ObjectOutputStream.PutField f = out.putFields();
        f.put("real", real);
        f.put("ghost", "boo");
        f.put("mistyped", 40L);
        f.put("put", true);
        out.writeFields();
      } else {
        out.defaultWriteObject();
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField g = in.readFields();
      real = g.get("real", -1);
      SideBySide.log(
          "real "
              + real
              + " ghost "
              + g.get("ghost", "none")
              + " mistyped "
              + g.get("mistyped", -1L)
              + " local mistyped "
              + mistyped);
    }
  }

  /**
   * Names in {@code serialPersistentFields} a field of type {@code Object} whose declared type is
   * {@code String}: the JDK binds a declared field only of exactly the named type.
   */
  static final class RefMistyped implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("s", Object.class)
    };
    String s = "s";
  }

  /** Every field type; its {@code readObject} logs the descriptor of the stream. */
  static final class AllTypes implements Serializable {
    private static final long serialVersionUID = 1L;
    boolean z = true;
    byte b = 1;
    char c = 'c';
    short s = 2;
    int i = 3;
    long j = 4;
    float f = 5;
    double d = 6;
    String str = "s";
    int[] ints = {7};
    Object[][] grid = {{}};
    Object obj = List.of();

    /** The descriptor {@code readFields} gave the last {@code readObject}. */
    static volatile ObjectStreamClass streamDescriptor;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField g = in.readFields();
      streamDescriptor = g.getObjectStreamClass();
      SideBySide.log(describe(streamDescriptor));
    }
  }

  /** Declares {@code copy} unshared: it is written as a new object even when shared. */
  static final class WithUnshared implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("copy", Box.class, true), new ObjectStreamField("same", Box.class)
    };
    Box copy;
    Box same;
  }

  enum Suit {
    PLAIN,
    FANCY {
      @Override
      public String toString() {
        return "fancy";
      }
    }
  }

  record Pt(int x, String label) implements Serializable {}

  /** Not serializable at all; only its {@code Class} is written. */
  static final class Unserializable {}

  /** The class {@link #versioned} defines, in a loader of its own each time. */
  private static final String VERSIONED = "conf.Versioned";

  /** A descriptor's name, serialVersionUID, fields and local class. */
  static String describe(ObjectStreamClass d) {
    if (d == null) {
      return "null";
    }
    String fields =
        Arrays.stream(d.getFields())
            .map(ClassDescriptorsConformanceTest::describe)
            .collect(Collectors.joining(", ", "[", "]"));
    Class<?> c = d.forClass();
    return d.getName()
        + " suid "
        + d.getSerialVersionUID()
        + " fields "
        + fields
        + " forClass "
        + (c == null ? "null" : c.getName());
  }

  /** A field's name, type code and string, offset and flags. */
  static String describe(ObjectStreamField f) {
    return f.getName()
        + ":"
        + f.getTypeCode()
        + (f.isPrimitive() ? "" : " " + f.getTypeString())
        + " offset "
        + f.getOffset()
        + (f.isUnshared() ? " unshared" : "");
  }

  /** The types of a descriptor's fields ({@code ObjectStreamField.getType}). */
  static String types(ObjectStreamClass d) {
    return Arrays.stream(d.getFields())
        .map(f -> f.getName() + " " + f.getType().getName())
        .collect(Collectors.joining(", "));
  }

  /** What a reader records of an object it read. */
  private interface Facts {
    void add(Object read, List<String> facts) throws Exception;
  }

  /** Writes each object, then reads them back: each one's serial form, then its facts. */
  private static Outcome roundTrip(Facts f, Object... objects) throws Exception {
    return SideBySide.same(
        out -> {
          for (Object o : objects) {
            out.writeObject(o);
          }
        },
        (in, facts) -> {
          for (int i = 0; i < objects.length; i++) {
            Object read = in.readObject();
            facts.add(SideBySide.jdkForm(read));
            f.add(read, facts);
          }
        });
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class: "The lookup method returns the ObjectStreamClass
   * descriptor for the specified class in the virtual machine": a restored object's class is the
   * JVM's own, so its descriptor is the very one {@code lookup} gives for the class, with the same
   * name, serialVersionUID and fields (primitives first, each group by name; no transient or static
   * field).
   */
  @Test
  void lookupOfARestoredObjectIsTheJvmsDescriptor() throws Exception {
    Outcome jdk =
        roundTrip(
            (read, facts) -> {
              ObjectStreamClass d = ObjectStreamClass.lookup(read.getClass());
              facts.add(
                  "same class "
                      + (read.getClass() == Declared.class)
                      + ", same descriptor "
                      + (d == ObjectStreamClass.lookup(Declared.class))
                      + ", "
                      + describe(d));
            },
            new Declared());
    assertTrue(
        jdk.facts()
            .get(1)
            .startsWith(
                "same class true, same descriptor true, "
                    + Declared.class.getName()
                    + " suid 42 fields [i:I offset 0, l:J offset 4, a:[ [I"),
        jdk.facts().get(1));
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class: {@code lookup} of a class that is not serializable (a
   * restored object's non-serializable superclass) returns null; {@code lookupAny} describes it
   * with serialVersionUID 0L and no fields. The superclass's field is set by its no-arg
   * constructor.
   */
  @Test
  void lookupOfANonSerializableSuperclassIsNullAndLookupAnyDescribesIt() throws Exception {
    OnPlainBase o = new OnPlainBase();
    o.hidden = 70;
    o.shown = 80;
    Outcome jdk =
        roundTrip(
            (read, facts) -> {
              Class<?> sup = read.getClass().getSuperclass();
              OnPlainBase r = (OnPlainBase) read;
              facts.add(
                  "lookup "
                      + describe(ObjectStreamClass.lookup(sup))
                      + "; lookupAny "
                      + describe(ObjectStreamClass.lookupAny(sup))
                      + "; hidden "
                      + r.hidden
                      + " shown "
                      + r.shown);
            },
            o);
    assertEquals(
        "lookup null; lookupAny "
            + NotSerializableBase.class.getName()
            + " suid 0 fields [] forClass "
            + NotSerializableBase.class.getName()
            + "; hidden 7 shown 80",
        jdk.facts().get(1));
  }

  /**
   * JOSS §4.6 Stream Unique Identifiers: a declared {@code serialVersionUID} is the class's;
   * otherwise it is computed from the class (its name, modifiers, interfaces, fields, constructors
   * and methods). Restored objects' descriptors agree with the originals' on both.
   */
  @Test
  void declaredAndComputedSerialVersionUids() throws Exception {
    long computed = ObjectStreamClass.lookup(Computed.class).getSerialVersionUID();
    Outcome jdk =
        roundTrip(
            (read, facts) ->
                facts.add(
                    "suid " + ObjectStreamClass.lookup(read.getClass()).getSerialVersionUID()),
            new Declared(),
            new Computed());
    assertEquals("suid 42", jdk.facts().get(1));
    assertEquals("suid " + computed, jdk.facts().get(3));
    assertNotEquals(0L, computed);
  }

  /**
   * JOSS §4.6 Stream Unique Identifiers and §4.1 The ObjectStreamClass Class: a class whose
   * serialVersionUID differs from the one in the stream cannot be read; both streams throw {@code
   * InvalidClassException} naming the class (Codese's is {@link ClassMismatchException}, a
   * subclass, with its own message), top-level or nested. The same class with the same
   * serialVersionUID in another loader reads (the control).
   */
  @Test
  void aSerialVersionUidMismatchIsAnInvalidClassException() throws Exception {
    ClassLoader v1 = versioned(1L);
    Object top = newVersioned(v1, 7);
    ArrayList<Object> nested = new ArrayList<>(List.of("x", newVersioned(v1, 8)));
    for (Object written : List.of(top, nested)) {
      List<String> control = readsWith(versioned(1L), written);
      assertEquals(List.of("read " + VERSIONED), control.subList(1, 2), control.toString());
      List<String> mismatch = readsWith(versioned(2L), written);
      assertEquals(
          List.of("InvalidClassException classname " + VERSIONED + " cause null"),
          mismatch.subList(1, 2),
          mismatch.toString());
    }
  }

  /**
   * Reads {@code written} with a loader that defines the class anew; both streams must agree.
   *
   * @return the JDK's facts: "none" or the exception, then what was read
   */
  private static List<String> readsWith(ClassLoader loader, Object written) throws Exception {
    SideBySide.Reader r =
        (in, facts) -> {
          try {
            Object o = in.readObject();
            Object v = o instanceof List<?> l ? l.get(1) : o;
            facts.add("read " + v.getClass().getName());
            facts.add(
                "loader "
                    + (v.getClass().getClassLoader() == loader)
                    + " n "
                    + v.getClass().getField("n").getInt(v));
          } catch (InvalidClassException e) {
            facts.add(
                "InvalidClassException classname "
                    + e.classname
                    + " cause "
                    + (e.getCause() == null ? null : e.getCause().getClass().getName()));
          }
        };
    SideBySide.Writer w = out -> out.writeObject(written);
    Outcome jdk =
        SideBySide.run(
            reading(
                SideBySide.JDK,
                in ->
                    new ObjectInputStream(in) {
                      @Override
                      protected Class<?> resolveClass(ObjectStreamClass desc)
                          throws IOException, ClassNotFoundException {
                        return desc.getName().equals(VERSIONED)
                            ? Class.forName(desc.getName(), false, loader)
                            : super.resolveClass(desc);
                      }
                    }),
            w,
            r);
    Outcome codese =
        SideBySide.run(
            reading(
                SideBySide.CODESE,
                in -> new CodeseInputStream(in, CodeseOptions.defaults().withClassLoader(loader))),
            w,
            r);
    assertEquals(jdk, codese, "Codese's streams differ from the JDK's");
    List<String> out = new ArrayList<>(List.of(jdk.thrown()));
    out.addAll(jdk.facts());
    return out;
  }

  private interface InFactory {
    ObjectInputStream make(InputStream in) throws IOException;
  }

  /** {@code base}'s streams, reading with the stream {@code in} makes. */
  private static Streams reading(Streams base, InFactory in) {
    return new Streams() {
      @Override
      public ObjectOutputStream out(OutputStream o) throws IOException {
        return base.out(o);
      }

      @Override
      public ObjectInputStream in(InputStream i) throws IOException {
        return in.make(i);
      }
    };
  }

  /** A loader of its own {@code conf.Versioned}: public, one public int n, the given suid. */
  private static ClassLoader versioned(long suid) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
    String name = VERSIONED.replace('.', '/');
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC,
        name,
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
            "serialVersionUID",
            "J",
            null,
            suid)
        .visitEnd();
    cw.visitField(Opcodes.ACC_PUBLIC, "n", "I", null, null).visitEnd();
    org.codese.testkit.ClassFiles.defaultConstructor(cw);
    cw.visitEnd();
    return org.codese.testkit.ClassFiles.definingOnly(
        ClassDescriptorsConformanceTest.class.getClassLoader(), VERSIONED, cw.toByteArray());
  }

  private static Object newVersioned(ClassLoader loader, int n) throws Exception {
    Class<?> c = Class.forName(VERSIONED, true, loader);
    Object o = c.getConstructor().newInstance();
    c.getField("n").setInt(o, n);
    return o;
  }

  /**
   * JOSS §4.3 Serialized Form ("the number of fields counts the number of serializable fields")
   * with {@code serialPersistentFields}: only the fields it names are written; a field it leaves
   * out reads back as its default value, and the descriptor lists only the named ones.
   */
  @Test
  void serialPersistentFieldsNameTheFieldsWritten() throws Exception {
    Restricted r = new Restricted();
    r.a = 10;
    r.b = 20;
    r.c = "thirty";
    Outcome jdk =
        roundTrip(
            (read, facts) -> {
              Restricted x = (Restricted) read;
              facts.add(
                  x.a
                      + " "
                      + x.b
                      + " "
                      + x.c
                      + " "
                      + describe(ObjectStreamClass.lookup(read.getClass())));
            },
            r);
    assertTrue(jdk.facts().get(1).startsWith("10 0 thirty "), jdk.facts().get(1));
  }

  /**
   * JOSS §4.4 The ObjectStreamField Class, with {@code serialPersistentFields} entries that no
   * declared field backs (no field of that name, or one of another type): {@code putFields} writes
   * the values put and {@code readFields} reads them back; the mistyped declared field is left
   * alone.
   */
  @Test
  void serialPersistentFieldsNoDeclaredFieldBacksArePutAndRead() throws Exception {
    Outcome jdk = roundTrip((read, facts) -> {}, new Unbacked(true));
    assertEquals(List.of("real 3 ghost boo mistyped 40 local mistyped 0"), jdk.log());
  }

  /**
   * JOSS §4.4 The ObjectStreamField Class and §2.3 The writeObject Method: {@code
   * defaultWriteObject} cannot write the fields of a class whose {@code serialPersistentFields}
   * name one no declared field backs (none of that name, or one of another type, even another
   * reference type), and a class without {@code writeObject} whose {@code serialPersistentFields}
   * do so cannot be written at all; the JDK's {@code writeObject} throws {@code
   * InvalidClassException} ("unmatched serializable field(s) declared").
   */
  @Test
  void defaultWriteObjectRefusesUnbackedSerialPersistentFields() throws Exception {
    for (Object o : List.of(new Unbacked(false), new RefMistyped())) {
      SideBySide.Writer byDefault = out -> out.writeObject(o);
      String thrown = SideBySide.writeFails(SideBySide.JDK, byDefault);
      assertEquals("java.io.InvalidClassException", thrown, o.getClass().getName());
      assertEquals(thrown, SideBySide.writeFails(SideBySide.CODESE, byDefault));
    }
  }

  /**
   * JOSS §4.4 The ObjectStreamField Class and §4.1 The ObjectStreamClass Class: the descriptor
   * {@code readFields} gives a class's {@code readObject} names every field with its type code
   * ("B", "C", "D", "F", "I", "J", "S", "Z", "[" and "L"), type string (the JVM signature of an
   * object field), type and offset, for the class as written.
   */
  @Test
  void objectStreamFieldsOfEveryType() throws Exception {
    Outcome jdk = roundTrip((read, facts) -> {}, new AllTypes());
    String d = jdk.log().get(0);
    assertTrue(
        d.contains("b:B offset 0")
            && d.contains("z:Z offset 29")
            && d.contains("grid:[ [[Ljava/lang/Object;")
            && d.contains("str:L Ljava/lang/String;")
            && d.contains("obj:L Ljava/lang/Object;"),
        d);
  }

  /**
   * JOSS §4.4 The ObjectStreamField Class ({@code ObjectStreamField(String, Class, boolean
   * unshared)}): a field declared unshared is written as with {@code writeUnshared}, a new object
   * even when the same object is reachable otherwise; the other field shares as usual.
   */
  @Test
  void anUnsharedSerialPersistentFieldIsWrittenAnew() throws Exception {
    Box b = new Box(1);
    WithUnshared w = new WithUnshared();
    w.copy = b;
    w.same = b;
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(b);
              out.writeObject(w);
            },
            (in, facts) -> {
              Box first = (Box) in.readObject();
              WithUnshared r = (WithUnshared) in.readObject();
              facts.add(
                  "copy new "
                      + (r.copy != first && r.copy != r.same)
                      + ", same shared "
                      + (r.same == first)
                      + ", "
                      + describe(ObjectStreamClass.lookup(WithUnshared.class)));
            });
    assertTrue(
        jdk.facts().get(0).startsWith("copy new true, same shared true"), jdk.facts().get(0));
  }

  /**
   * JOSS §4.3 Serialized Form (a {@code Class} object is written as its class descriptor, for
   * serializable classes and others alike) and §4.1: read back, it is the JVM's own {@code Class}
   * object, of a serializable class, a class that is not serializable, an enum, an array, a
   * primitive type and {@code void}; a {@code Class} written twice is one handle.
   */
  @Test
  void classObjectsReadBackAsTheJvmsOwn() throws Exception {
    List<Class<?>> classes =
        List.of(
            Box.class,
            Unserializable.class,
            Suit.class,
            Suit.FANCY.getClass(),
            int[].class,
            Box[][].class,
            int.class,
            void.class,
            String.class,
            Pt.class);
    Outcome jdk =
        roundTrip(
            (read, facts) -> {
              List<?> l = (List<?>) read;
              for (int i = 0; i < classes.size(); i++) {
                facts.add(classes.get(i).getName() + " same " + (l.get(i) == classes.get(i)));
              }
              facts.add("twice " + (l.get(classes.size()) == Box.class));
            },
            withTwice(classes));
    assertTrue(
        jdk.facts().stream().skip(1).allMatch(f -> f.endsWith(" true")), jdk.facts().toString());
  }

  private static ArrayList<Object> withTwice(List<Class<?>> classes) {
    ArrayList<Object> l = new ArrayList<>(classes);
    l.add(Box.class);
    return l;
  }

  /**
   * JOSS §4.3 Serialized Form and §4.1 The ObjectStreamClass Class: an {@code ObjectStreamClass}
   * written as a value reads back as a descriptor of the same name, serialVersionUID and fields
   * whose {@code forClass} is the JVM's class (for the JDK, the descriptor read from the stream,
   * not the one {@code lookup} gives), one instance for the same descriptor written twice.
   */
  @Test
  void objectStreamClassObjectsReadBackAsDescriptorsOfTheJvmsClass() throws Exception {
    ObjectStreamClass d = ObjectStreamClass.lookup(Declared.class);
    ArrayList<Object> values = new ArrayList<>(List.of(d, d, ObjectStreamClass.lookup(Pt.class)));
    Outcome jdk =
        SideBySide.same(
            out -> out.writeObject(values),
            (in, facts) -> {
              List<?> l = (List<?>) in.readObject();
              ObjectStreamClass r = (ObjectStreamClass) l.get(0);
              facts.add(
                  describe(r)
                      + "; twice "
                      + (l.get(1) == r)
                      + "; forClass JVM's "
                      + (r.forClass() == Declared.class));
              facts.add(describe((ObjectStreamClass) l.get(2)));
            });
    assertTrue(
        jdk.facts().get(0).endsWith("; twice true; forClass JVM's true"), jdk.facts().get(0));
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class and §4.4 The ObjectStreamField Class: the descriptors a
   * reader gets from the stream, as a value read back and from {@code GetField.
   * getObjectStreamClass()}, are the stream's, not {@code lookup}'s: new instances whose object
   * fields have type {@code Object} ({@code ObjectStreamField(name, signature)}, "the type of the
   * field, or Object if it is not a primitive type" known only by its signature).
   */
  @Test
  void descriptorsFromTheStreamAreTheStreamsOwn() throws Exception {
    ObjectStreamClass d = ObjectStreamClass.lookup(Declared.class);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(d);
              out.writeObject(new AllTypes());
            },
            (in, facts) -> {
              ObjectStreamClass r = (ObjectStreamClass) in.readObject();
              facts.add("lookup's " + (r == d) + "; " + types(r));
              in.readObject();
              facts.add(types(AllTypes.streamDescriptor));
            });
    assertEquals(
        "lookup's false; i int, l long, a java.lang.Object, s java.lang.Object",
        jdk.facts().get(0));
    assertTrue(jdk.facts().get(1).contains("str java.lang.Object"), jdk.facts().get(1));
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class and §1.12 "Serialization of Enum Constants" as it shows
   * in descriptors: an enum's descriptor has serialVersionUID 0L and no fields, also for a constant
   * with a body (whose class is a subclass of the enum); the constant reads back as the JVM's own
   * constant.
   */
  @Test
  void enumDescriptorsAndConstants() throws Exception {
    Outcome jdk =
        roundTrip(
            (read, facts) -> {
              Suit s = (Suit) read;
              facts.add(
                  "same "
                      + (s == Suit.valueOf(s.name()))
                      + " "
                      + describe(ObjectStreamClass.lookup(s.getClass()))
                      + " declaring "
                      + s.getDeclaringClass().getSimpleName());
            },
            Suit.PLAIN,
            Suit.FANCY);
    assertTrue(
        jdk.facts().get(1).startsWith("same true " + Suit.class.getName() + " suid 0 fields []"),
        jdk.facts().get(1));
    assertTrue(jdk.facts().get(3).contains(" suid 0 fields []"), jdk.facts().get(3));
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class for arrays: an array's descriptor has the array class's
   * name ("[I", "[[Ljava.lang.String;") and a computed serialVersionUID, no fields; restored arrays
   * have the JVM's array classes, also an empty array whose component type is not serializable.
   */
  @Test
  void arrayDescriptorsAndClasses() throws Exception {
    Object[] arrays = {
      new int[] {1},
      new String[][] {{"a"}},
      new Box[] {new Box(1)},
      new Suit[] {Suit.FANCY},
      new Unserializable[0],
      new long[0][]
    };
    Outcome jdk =
        roundTrip(
            (read, facts) ->
                facts.add(
                    "class "
                        + read.getClass().getName()
                        + " "
                        + describe(ObjectStreamClass.lookup(read.getClass()))),
            arrays);
    for (int i = 0; i < arrays.length; i++) {
      assertTrue(
          jdk.facts()
              .get(2 * i + 1)
              .startsWith(
                  "class "
                      + arrays[i].getClass().getName()
                      + " "
                      + arrays[i].getClass().getName()
                      + " suid "),
          jdk.facts().get(2 * i + 1));
    }
  }

  /**
   * JOSS §4.1 The ObjectStreamClass Class and §4.6 Stream Unique Identifiers for records: a
   * record's serialVersionUID is 0L unless declared, its fields are its components; the stream's
   * descriptor and the restored record's agree.
   */
  @Test
  void recordDescriptors() throws Exception {
    Outcome jdk =
        roundTrip(
            (read, facts) -> facts.add(describe(ObjectStreamClass.lookup(read.getClass()))),
            new Pt(1, "one"));
    assertTrue(
        jdk.facts().get(1).startsWith(Pt.class.getName() + " suid 0 fields [x:I"),
        jdk.facts().get(1));
  }
}
