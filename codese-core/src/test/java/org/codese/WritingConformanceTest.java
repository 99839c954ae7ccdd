package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamConstants;
import java.io.ObjectStreamField;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.testkit.Box;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.codese.testkit.SideBySide.Streams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Chapter 2 of the Java Object Serialization Specification, "Object Output Classes", as the drop-in
 * streams claim it: §2.1 "The ObjectOutputStream Class", §2.2 "The ObjectOutputStream.PutField
 * Class", §2.3 "The writeObject Method", §2.4 "The writeExternal Method", §2.5 "The writeReplace
 * Method" and §2.6 "The useProtocolVersion Method". Every program runs on the JDK's streams and on
 * Codese's ({@link SideBySide}): what the reader observes (the JDK's serial form of what it
 * restored, which objects are the same instance), the hook calls in order, and the exceptions by
 * type and cause type. {@code writeObjectOverride} is covered by {@link SubclassConformanceTest};
 * {@code replaceObject} and {@code annotateClass} here on a small graph, by {@link StreamHooksTest}
 * on graphs of every kind.
 */
@Timeout(120)
class WritingConformanceTest {
  /** Logs its hooks; the superclass of {@link WithData}. */
  static class Base implements Serializable {
    private static final long serialVersionUID = 1L;
    int b = 1;

    private void writeObject(ObjectOutputStream out) throws IOException {
      SideBySide.log("Base.writeObject");
      out.defaultWriteObject();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      SideBySide.log("Base.readObject");
      in.defaultReadObject();
    }
  }

  /** Writes its fields, then optional data: primitives, a shared object and itself. */
  static final class WithData extends Base {
    private static final long serialVersionUID = 1L;
    String name = "n";
    Box partner;

    private void writeObject(ObjectOutputStream out) throws IOException {
      SideBySide.log("WithData.writeObject");
      out.defaultWriteObject();
      out.writeInt(42);
      out.writeUTF("utf");
      out.writeObject(partner);
      out.writeObject(this);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      SideBySide.log("WithData.readObject");
      in.defaultReadObject();
      SideBySide.log(
          "data "
              + in.readInt()
              + " "
              + in.readUTF()
              + " partner "
              + (in.readObject() == partner)
              + " self "
              + (in.readObject() == this));
    }
  }

  /** Writes no fields, only its own data; reads it back the same way. */
  static final class DataOnly implements Serializable {
    private static final long serialVersionUID = 1L;
    int x;

    DataOnly(int x) {
      this.x = x;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.writeInt(x * 2);
      out.writeObject("tag" + x);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      x = in.readInt() / 2;
      SideBySide.log("DataOnly " + x + " " + in.readObject());
    }
  }

  /** Writes optional data its {@code readObject} never reads. */
  static final class Chatty implements Serializable {
    private static final long serialVersionUID = 1L;
    int x = 5;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeLong(99L);
      out.writeObject(new Box(7));
      out.writeUTF("unread");
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
    }
  }

  /** Calls the field-writing methods once too often; logs what each call threw. */
  static final class Misuser implements Serializable {
    private static final long serialVersionUID = 1L;
    final boolean putFirst;
    int x = 3;

    Misuser(boolean putFirst) {
      this.putFirst = putFirst;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      if (putFirst) {
        ObjectOutputStream.PutField f = out.putFields();
        f.put("putFirst", true);
        f.put("x", x);
        SideBySide.log("putFields again same " + (out.putFields() == f));
        out.writeFields();
        SideBySide.log("defaultWriteObject " + thrown(out::defaultWriteObject));
      } else {
        out.defaultWriteObject();
        SideBySide.log("defaultWriteObject " + thrown(out::defaultWriteObject));
        SideBySide.log("putFields " + thrown(out::putFields));
        SideBySide.log("writeFields " + thrown(out::writeFields));
      }
    }
  }

  /** Writes its fields with {@code putFields}: some changed, one left out, one unbacked. */
  static final class Put implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("count", int.class), new ObjectStreamField("label", String.class),
      new ObjectStreamField("peer", Object.class), new ObjectStreamField("total", long.class),
      new ObjectStreamField("ratio", double.class)
    };
    int count = 4;
    String label = "kept";
    Object peer;
    double ratio = 0.5;

    private void writeObject(ObjectOutputStream out) throws IOException {
      ObjectOutputStream.PutField f = out.putFields();
      f.put("count", count * 10);
      f.put("peer", peer);
      f.put("total", 123_456_789_012L);
      out.writeFields();
      out.writeInt(-1);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField g = in.readFields();
      count = g.get("count", -1);
      label = (String) g.get("label", "absent");
      peer = g.get("peer", null);
      ratio = g.get("ratio", 9.0);
      SideBySide.log(
          "read "
              + count
              + " "
              + label
              + " "
              + peer
              + " "
              + ratio
              + " total "
              + g.get("total", 0L)
              + " defaulted "
              + g.defaulted("label")
              + " then "
              + in.readInt());
    }
  }

  /** Puts values a {@code PutField} refuses; logs what each put threw. */
  static final class BadPut implements Serializable {
    private static final long serialVersionUID = 1L;
    int count = 1;
    String label = "x";

    private void writeObject(ObjectOutputStream out) throws IOException {
      ObjectOutputStream.PutField f = out.putFields();
      SideBySide.log("unknown " + thrown(() -> f.put("nosuch", 1)));
      SideBySide.log("int as long " + thrown(() -> f.put("count", 1L)));
      SideBySide.log("object into int " + thrown(() -> f.put("count", (Object) "s")));
      SideBySide.log("int into object " + thrown(() -> f.put("label", 5)));
      f.put("label", "ok");
      out.writeFields();
    }
  }

  /** Externalizable: its public constructor, and data with a shared object and itself. */
  public static final class Ext implements Externalizable {
    private static final long serialVersionUID = 1L;
    int n;
    Object partner;

    public Ext() {
      SideBySide.log("Ext()");
    }

    Ext(int n, Object partner) {
      this.n = n;
      this.partner = partner;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      SideBySide.log("writeExternal");
      out.writeInt(n);
      out.writeUTF("ext");
      out.writeObject(partner);
      out.writeObject(this);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
      n = in.readInt();
      String s = in.readUTF();
      partner = in.readObject();
      SideBySide.log("readExternal " + n + " " + s + " self " + (in.readObject() == this));
    }
  }

  /** Externalizable: reads only part of what it writes. */
  public static final class ExtChatty implements Externalizable {
    private static final long serialVersionUID = 1L;
    int n = 8;

    public ExtChatty() {}

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(n);
      out.writeObject(new Box(3));
      out.writeDouble(1.5);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
      n = in.readInt();
    }
  }

  /** Externalizable on a serializable superclass whose fields it does not write. */
  public static final class ExtOnBase extends Base implements Externalizable {
    private static final long serialVersionUID = 1L;

    public ExtOnBase() {}

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(b);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
      SideBySide.log("readExternal " + in.readInt() + " b " + b);
    }
  }

  /** Replaced by a {@link Ticket} of another class, which resolves back. */
  static final class Original implements Serializable {
    private static final long serialVersionUID = 1L;
    final int id;
    Object back;

    Original(int id) {
      this.id = id;
    }

    private Object writeReplace() {
      SideBySide.log("Original.writeReplace " + id);
      Ticket t = new Ticket();
      t.id = id;
      t.child = back;
      return t;
    }
  }

  /** The replacement of {@link Original}; resolves to a new one when {@link #resolve} is set. */
  static final class Ticket implements Serializable {
    private static final long serialVersionUID = 1L;
    int id;
    Object child;
    boolean resolve;

    private Object readResolve() {
      SideBySide.log("Ticket.readResolve " + id);
      return resolve ? new Original(id) : this;
    }
  }

  /** The chain First → Second → Third; Third replaces itself by itself, which ends it. */
  static final class First implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      SideBySide.log("First.writeReplace");
      return new Second();
    }
  }

  static final class Second implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      SideBySide.log("Second.writeReplace");
      return new Third();
    }
  }

  static final class Third implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      SideBySide.log("Third.writeReplace");
      return this;
    }
  }

  /** Replaces itself by another instance of its class (or by null when {@code n} is 0). */
  static final class Successor implements Serializable {
    private static final long serialVersionUID = 1L;
    final int n;

    Successor(int n) {
      this.n = n;
    }

    private Object writeReplace() {
      SideBySide.log("Successor.writeReplace " + n);
      return n == 0 ? null : new Successor(n + 1);
    }

    @Override
    public String toString() {
      return "Successor" + n;
    }
  }

  /** Not serializable. */
  static final class Plain {
    int v = 1;
  }

  /** Replaces itself by an object that is not serializable. */
  static final class ToPlain implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      return new Plain();
    }
  }

  /** A protected {@code writeReplace} that subclasses inherit. */
  static class ProtectedReplace implements Serializable {
    private static final long serialVersionUID = 1L;

    protected Object writeReplace() {
      return "replaced " + getClass().getSimpleName();
    }
  }

  static final class InheritsReplace extends ProtectedReplace {
    private static final long serialVersionUID = 1L;
  }

  /** A private {@code writeReplace} that subclasses do not inherit. */
  static class PrivateReplace implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      return "replaced " + getClass().getSimpleName();
    }
  }

  static final class SkipsReplace extends PrivateReplace {
    private static final long serialVersionUID = 1L;
    int v = 2;
  }

  /** Its {@code writeObject} fails after writing part of its data. */
  static final class FailsToWrite implements Serializable {
    private static final long serialVersionUID = 1L;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(1);
      throw new java.io.InvalidObjectException("cannot write now");
    }
  }

  /** What both hooked streams' {@code annotateClass} does: logs the call. */
  static void annotate(Class<?> cl) {
    SideBySide.log("annotateClass " + cl.getSimpleName());
  }

  /** What both hooked streams' {@code replaceObject} does: logs it, replaces boxes. */
  static Object replace(Object obj) {
    SideBySide.log("replaceObject " + obj);
    return obj instanceof Box b ? new Box(b.v + 100) : obj;
  }

  /** A JDK stream with the writer hooks {@code annotateClass} and {@code replaceObject}. */
  static final class JdkHooked extends ObjectOutputStream {
    JdkHooked(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected void annotateClass(Class<?> cl) {
      annotate(cl);
    }

    @Override
    protected Object replaceObject(Object obj) {
      return replace(obj);
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseHooked extends CodeseOutputStream {
    CodeseHooked(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected void annotateClass(Class<?> cl) {
      annotate(cl);
    }

    @Override
    protected Object replaceObject(Object obj) {
      return replace(obj);
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  /** What an action threw, as the class names of the exception and its causes, or "none". */
  static String thrown(Action a) {
    try {
      a.run();
      return "none";
    } catch (Exception | Error e) {
      return SideBySide.types(e);
    }
  }

  /** Reads one object: "read" and the object, or the exception's types. */
  private static String readOne(ObjectInputStream in) {
    try {
      return "read " + in.readObject();
    } catch (Exception | Error e) {
      return SideBySide.types(e);
    }
  }

  /** Reads {@code n} objects, recording each one's JDK serial form. */
  private static SideBySide.Reader readsForms(int n) {
    return (in, facts) -> {
      for (int i = 0; i < n; i++) {
        facts.add(SideBySide.jdkForm(in.readObject()));
      }
    };
  }

  /** Writes each object, then the string "end"; reads them back with their serial forms. */
  private static Outcome writesAndReads(Object... objects) throws Exception {
    return SideBySide.same(
        out -> {
          for (Object o : objects) {
            out.writeObject(o);
          }
          out.writeObject("end");
        },
        readsForms(objects.length + 1));
  }

  /**
   * JOSS §2.3 The writeObject Method: each class's {@code writeObject} is called superclass first,
   * writes its fields with {@code defaultWriteObject}, then optional data (primitives, an object
   * shared with the graph, a back reference to the object itself), which the matching {@code
   * readObject} reads back in order.
   */
  @Test
  void writeObjectWritesFieldsThenOptionalDataClassByClass() throws Exception {
    WithData w = new WithData();
    w.partner = new Box(1);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(w);
              out.writeObject(w.partner);
            },
            (in, facts) -> {
              WithData r = (WithData) in.readObject();
              facts.add(SideBySide.jdkForm(r));
              facts.add("partner shared " + (in.readObject() == r.partner));
            });
    assertEquals(
        List.of(
            "Base.writeObject",
            "WithData.writeObject",
            "Base.readObject",
            "WithData.readObject",
            "data 42 utf partner true self true"),
        jdk.log());
    assertEquals("partner shared true", jdk.facts().get(1));
  }

  /**
   * JOSS §2.3 The writeObject Method: a class that writes only its own data (neither {@code
   * defaultWriteObject} nor {@code writeFields}) is read back by a {@code readObject} that reads
   * that data.
   */
  @Test
  void writeObjectMayWriteOnlyItsOwnData() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(new DataOnly(3));
              out.writeObject(new DataOnly(4));
            },
            readsForms(2));
    assertEquals(List.of("DataOnly 3 tag3", "DataOnly 4 tag4"), jdk.log());
  }

  /**
   * JOSS §2.3 The writeObject Method: optional data that the class's {@code readObject} does not
   * read is skipped (up to the end of the object's data), so that the objects after it, in the same
   * graph and at the top level, read as written.
   */
  @Test
  void optionalDataNotReadIsSkipped() throws Exception {
    ArrayList<Object> list = new ArrayList<>(List.of(new Chatty(), "after", new Chatty()));
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(list);
              out.writeInt(11);
              out.writeObject(new Chatty());
            },
            (in, facts) -> {
              facts.add(SideBySide.jdkForm(in.readObject()));
              facts.add("int " + in.readInt());
              facts.add(SideBySide.jdkForm(in.readObject()));
            });
    assertEquals("int 11", jdk.facts().get(1));
  }

  /**
   * JOSS §2.3 The writeObject Method and §2.1 The ObjectOutputStream Class: {@code
   * defaultWriteObject}, {@code putFields} and {@code writeFields} called outside any {@code
   * writeObject} throw {@code NotActiveException}.
   */
  @Test
  void fieldWritingMethodsOutsideWriteObjectAreNotActive() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              SideBySide.log("defaultWriteObject " + thrown(out::defaultWriteObject));
              SideBySide.log("putFields " + thrown(out::putFields));
              SideBySide.log("writeFields " + thrown(out::writeFields));
              out.writeObject(new Box(1));
            },
            readsForms(1));
    String notActive = "java.io.NotActiveException";
    assertEquals(
        List.of(
            "defaultWriteObject " + notActive,
            "putFields " + notActive,
            "writeFields " + notActive),
        jdk.log());
  }

  /**
   * JOSS §2.3 The writeObject Method: "Either ObjectOutputStream's defaultWriteObject or
   * writeFields method must be called once (and only once)"; the JDK enforces it: a second {@code
   * defaultWriteObject}, {@code putFields} after {@code defaultWriteObject}, {@code writeFields}
   * without {@code putFields} and {@code defaultWriteObject} after {@code writeFields} throw {@code
   * NotActiveException}, and {@code putFields} returns the same {@code PutField} each time.
   */
  @Test
  void fieldWritingMethodsOnceAndOnlyOncePerClass() throws Exception {
    Outcome jdk = writesAndReads(new Misuser(false), new Misuser(true));
    String notActive = "java.io.NotActiveException";
    assertEquals(
        List.of(
            "defaultWriteObject " + notActive,
            "putFields " + notActive,
            "writeFields " + notActive,
            "putFields again same true",
            "defaultWriteObject " + notActive),
        jdk.log());
  }

  /**
   * JOSS §2.2 The ObjectOutputStream.PutField Class: {@code putFields} and {@code writeFields}
   * write the values put, the default value for a field not put, and values for {@code
   * serialPersistentFields} that no declared field backs; {@code readFields} reads them back, and
   * optional data follows.
   */
  @Test
  void putFieldsWritesThePutValuesAndDefaultsForTheRest() throws Exception {
    Put p = new Put();
    Box shared = new Box(9);
    p.peer = shared;
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(p);
              out.writeObject(shared);
            },
            (in, facts) -> {
              Put r = (Put) in.readObject();
              facts.add(SideBySide.jdkForm(r));
              facts.add("peer shared " + (in.readObject() == r.peer));
            });
    assertEquals(
        List.of("read 40 null Box9 0.0 total 123456789012 defaulted false then -1"), jdk.log());
    assertEquals("peer shared true", jdk.facts().get(1));
  }

  /**
   * JOSS §2.2 The ObjectOutputStream.PutField Class: {@code put} "throws IllegalArgumentException
   * if name does not match the name of a serializable field for the class whose fields are being
   * written, or if the type of the named field is not" the type of the value; the fields put
   * correctly are still written.
   */
  @Test
  void putFieldRefusesUnknownNamesAndOtherTypes() throws Exception {
    Outcome jdk = SideBySide.same(out -> out.writeObject(new BadPut()), readsForms(1));
    String illegal = "java.lang.IllegalArgumentException";
    assertEquals(
        List.of(
            "unknown " + illegal,
            "int as long " + illegal,
            "object into int " + illegal,
            "int into object " + illegal),
        jdk.log());
  }

  /**
   * JOSS §2.4 The writeExternal Method: the class writes its whole state itself; on reading, the
   * public no-arg constructor runs, then {@code readExternal} reads the data back, including an
   * object shared with the rest of the stream and a back reference to the object itself.
   */
  @Test
  void writeExternalWritesTheWholeState() throws Exception {
    Box shared = new Box(2);
    Ext e = new Ext(6, shared);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(e);
              out.writeObject(shared);
            },
            (in, facts) -> {
              Ext r = (Ext) in.readObject();
              facts.add("n " + r.n + " partner shared " + (in.readObject() == r.partner));
            });
    assertEquals(List.of("writeExternal", "Ext()", "readExternal 6 ext self true"), jdk.log());
    assertEquals(List.of("n 6 partner shared true"), jdk.facts());
  }

  /**
   * JOSS §2.4 The writeExternal Method (with protocol version 2, the default since JDK 1.2, the
   * data is written in block data mode): what {@code readExternal} does not read is skipped, and
   * the next objects read as written.
   */
  @Test
  void externalDataNotReadIsSkipped() throws Exception {
    Outcome jdk = writesAndReads(new ExtChatty(), new ArrayList<>(List.of(new ExtChatty(), 4)));
    assertEquals(3, jdk.facts().size());
  }

  /**
   * JOSS §2.4 The writeExternal Method: "the Externalizable interface ... is solely responsible for
   * writing the state of the object, including the state of its supertypes": the fields and the
   * {@code writeObject} method of a serializable superclass take no part; the superclass field
   * keeps the value the constructor gave it.
   */
  @Test
  void externalizableSupertypesAreNotWrittenByTheStream() throws Exception {
    ExtOnBase e = new ExtOnBase();
    e.b = 5;
    Outcome jdk =
        SideBySide.same(
            out -> out.writeObject(e),
            (in, facts) -> {
              ExtOnBase r = (ExtOnBase) in.readObject();
              facts.add("b " + r.b);
            });
    assertEquals(List.of("readExternal 5 b 1"), jdk.log());
    assertEquals(List.of("b 1"), jdk.facts());
  }

  /**
   * JOSS §2.5 The writeReplace Method: an object may be replaced by an object of another class,
   * which is written in its place (its class descriptor, not the original's), and whose {@code
   * readResolve} may turn it back into the original class on reading.
   */
  @Test
  void writeReplaceByAnotherClass() throws Exception {
    Original plain = new Original(1);
    Original resolved = new Original(2);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(plain);
              out.writeObject(resolved);
            },
            (in, facts) -> {
              facts.add(in.readObject().getClass().getSimpleName());
              facts.add(in.readObject().getClass().getSimpleName());
            });
    assertEquals(List.of("Ticket", "Ticket"), jdk.facts());
    assertEquals(
        List.of(
            "Original.writeReplace 1",
            "Original.writeReplace 2",
            "Ticket.readResolve 1",
            "Ticket.readResolve 2"),
        jdk.log());
  }

  /**
   * JOSS §2.5 The writeReplace Method: replacement is repeated while the replacement's class has a
   * {@code writeReplace} and differs from the class just replaced ({@code
   * ObjectOutputStream.writeObject0}); a {@code writeReplace} that returns an object of its own
   * class ends the chain after one call.
   */
  @Test
  void replacementChainsAreFollowedUntilTheClassRepeats() throws Exception {
    Outcome jdk = writesAndReads(new First(), new Successor(1));
    assertEquals(
        List.of(
            "First.writeReplace",
            "Second.writeReplace",
            "Third.writeReplace",
            "Successor.writeReplace 1"),
        jdk.log());
  }

  /**
   * JOSS §2.5 The writeReplace Method: the stream records the replacement of each object, so a
   * shared object is replaced once and every reference to it reads as one replacement; a cycle from
   * the replacement back to the original refers to the replacement.
   */
  @Test
  void aSharedOrCyclicObjectIsReplacedOnce() throws Exception {
    Original o = new Original(3);
    Box inner = new Box(4);
    inner.ref = o;
    o.back = inner;
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(new ArrayList<>(List.of(o, o)));
              out.writeObject(o);
            },
            (in, facts) -> {
              List<?> list = (List<?>) in.readObject();
              Ticket t = (Ticket) list.get(0);
              facts.add(
                  "same in list "
                      + (list.get(1) == t)
                      + ", at top level "
                      + (in.readObject() == t)
                      + ", cycle to replacement "
                      + (((Box) t.child).ref == t));
            });
    assertEquals(
        List.of("same in list true, at top level true, cycle to replacement true"), jdk.facts());
    assertEquals(List.of("Original.writeReplace 3", "Ticket.readResolve 3"), jdk.log());
  }

  /** JOSS §2.5 The writeReplace Method: a {@code writeReplace} that returns null writes null. */
  @Test
  void replacementByNullWritesNull() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(new Successor(0));
              out.writeObject(new ArrayList<>(List.of(new Successor(0), "x")));
            },
            (in, facts) -> {
              facts.add(String.valueOf(in.readObject()));
              facts.add(String.valueOf(in.readObject()));
            });
    assertEquals(List.of("null", "[null, x]"), jdk.facts());
  }

  /**
   * JOSS §2.5 The writeReplace Method: "ANY-ACCESS-MODIFIER Object writeReplace()" follows the Java
   * accessibility rules: a protected one applies to subclasses, a private one only to its own
   * class.
   */
  @Test
  void writeReplaceIsInheritedAsJavaAccessRulesSay() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(new InheritsReplace());
              out.writeObject(new SkipsReplace());
            },
            (in, facts) -> {
              facts.add(String.valueOf(in.readObject()));
              facts.add(in.readObject().getClass().getSimpleName());
            });
    assertEquals(List.of("replaced InheritsReplace", "SkipsReplace"), jdk.facts());
  }

  /** Writers of an object that is not serializable: top-level, nested, as a replacement. */
  private static List<SideBySide.Writer> notSerializableWriters() {
    Box nested = new Box(1);
    nested.ref = new Plain();
    return List.of(
        out -> out.writeObject(new Plain()),
        out -> out.writeObject(nested),
        out -> out.writeObject(new ToPlain()));
  }

  /**
   * JOSS §2.1 The ObjectOutputStream Class ("NotSerializableException if an object ... does not
   * implement Serializable") and §2.5 The writeReplace Method: an object that is not serializable,
   * at the top level, nested or as a replacement, fails the {@code writeObject} with {@code
   * NotSerializableException}; so does Codese's stream with {@code withRequireSerializable(true)}.
   */
  @Test
  void notSerializableObjectsFailTheWriteWhenSerializableIsRequired() throws Exception {
    Streams requiring =
        hooked(
            SideBySide.CODESE,
            o -> new CodeseOutputStream(o, CodeseOptions.defaults().withRequireSerializable(true)));
    for (SideBySide.Writer w : notSerializableWriters()) {
      String jdk = SideBySide.writeFails(SideBySide.JDK, w);
      assertEquals("java.io.NotSerializableException", jdk);
      assertEquals(jdk, SideBySide.writeFails(requiring, w));
    }
  }

  /**
   * JOSS §2.1 The ObjectOutputStream Class, as above, with Codese's stream as a drop-in
   * replacement, with default options.
   */
  @Test
  void notSerializableObjectsFailTheWriteWithDefaultOptions() throws Exception {
    for (SideBySide.Writer w : notSerializableWriters()) {
      assertEquals(
          SideBySide.writeFails(SideBySide.JDK, w), SideBySide.writeFails(SideBySide.CODESE, w));
    }
  }

  /**
   * As above, with options given for another reason: options that do not set {@code
   * withRequireSerializable} keep the JDK's rule; {@code withRequireSerializable(false)} lets
   * Codese's stream write such objects, which its reader then refuses unless admitted.
   */
  @Test
  void onlyAnExplicitChoiceLetsTheStreamWriteObjectsThatAreNotSerializable() throws Exception {
    Streams otherOptions =
        hooked(
            SideBySide.CODESE,
            o -> new CodeseOutputStream(o, CodeseOptions.defaults().withRestoreThreads(2)));
    Streams notRequiring =
        hooked(
            SideBySide.CODESE,
            o ->
                new CodeseOutputStream(o, CodeseOptions.defaults().withRequireSerializable(false)));
    for (SideBySide.Writer w : notSerializableWriters()) {
      assertEquals("java.io.NotSerializableException", SideBySide.writeFails(otherOptions, w));
      assertEquals("none", SideBySide.writeFails(notRequiring, w));
    }
  }

  /**
   * JOSS §2.1 The ObjectOutputStream Class and §2.3 The writeObject Method: an exception from a
   * class's {@code writeObject} reaches the caller of {@code writeObject} as it is. A documented
   * difference (README, "Differences from the JDK streams"): the JDK also writes the exception into
   * the stream, so its reader gets {@code WriteAbortedException} with it as the cause; Codese
   * writes nothing for the failed object, and its reader reads the next one.
   */
  @Test
  void aFailingWriteObjectReachesTheCallerAndCodeseWritesNothing() throws Exception {
    SideBySide.Writer w =
        out -> {
          SideBySide.log("write " + thrown(() -> out.writeObject(new FailsToWrite())));
          out.writeObject("next");
        };
    SideBySide.Reader r =
        (in, facts) -> {
          facts.add(readOne(in));
          facts.add(readOne(in));
        };
    Outcome jdk = SideBySide.run(SideBySide.JDK, w, r);
    Outcome codese = SideBySide.run(SideBySide.CODESE, w, r);
    assertEquals(List.of("write java.io.InvalidObjectException"), jdk.log());
    assertEquals(jdk.log(), codese.log());
    assertEquals(
        List.of("java.io.WriteAbortedException <- java.io.InvalidObjectException", "read next"),
        jdk.facts());
    assertEquals(List.of("read next", "java.io.EOFException"), codese.facts());
    assertNotEquals(jdk.facts(), codese.facts());
  }

  /**
   * JOSS §2.6 The useProtocolVersion Method: data written with {@code PROTOCOL_VERSION_1}
   * (externalizable data not in block data mode) reads back as with version 2. Codese checks the
   * call and writes its own format either way (CodeseOutputStream's Javadoc); what the reader gets
   * is the same.
   */
  @Test
  void protocolVersionOneDataReadsBackTheSame() throws Exception {
    Box shared = new Box(5);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.useProtocolVersion(ObjectStreamConstants.PROTOCOL_VERSION_1);
              out.writeObject(new Ext(3, shared));
              out.writeObject(shared);
            },
            (in, facts) -> {
              Ext e = (Ext) in.readObject();
              facts.add("n " + e.n + " shared " + (in.readObject() == e.partner));
            });
    assertEquals(List.of("n 3 shared true"), jdk.facts());
  }

  /**
   * JOSS §2.1 The ObjectOutputStream Class, {@code annotateClass} and {@code replaceObject}: both
   * streams call {@code annotateClass} once per class and {@code replaceObject} for every object,
   * and the replacement is what the reader gets (issue 10, part 3; {@code StreamHooksTest} has the
   * graphs).
   */
  @Test
  void annotateClassAndReplaceObjectAreCalledAsByTheJdk() throws Exception {
    Streams jdkHooked = hooked(SideBySide.JDK, JdkHooked::new);
    Streams codeseHooked = hooked(SideBySide.CODESE, CodeseHooked::new);
    SideBySide.Writer w =
        out -> {
          out.writeObject(new Box(1));
          out.writeObject(new Box(2));
        };
    SideBySide.Reader r =
        (in, facts) -> {
          facts.add(String.valueOf(in.readObject()));
          facts.add(String.valueOf(in.readObject()));
        };
    Outcome jdk = SideBySide.run(jdkHooked, w, r);
    Outcome codese = SideBySide.run(codeseHooked, w, r);
    assertEquals(List.of("Box101", "Box102"), jdk.facts());
    assertEquals(
        List.of("replaceObject Box1", "annotateClass Box", "replaceObject Box2"), jdk.log());
    assertEquals(jdk.facts(), codese.facts());
    assertEquals(jdk.log(), codese.log());
  }

  private interface OutFactory {
    ObjectOutputStream make(OutputStream out) throws IOException;
  }

  /** {@code base}'s streams, writing with a subclass that {@code out} makes. */
  private static Streams hooked(Streams base, OutFactory out) {
    return new Streams() {
      @Override
      public ObjectOutputStream out(OutputStream o) throws IOException {
        return out.make(o);
      }

      @Override
      public ObjectInputStream in(java.io.InputStream i) throws IOException {
        return base.in(i);
      }
    };
  }
}
