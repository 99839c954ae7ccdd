package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.OptionalDataException;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Chapter 3 of the Java Object Serialization Specification, "Object Input Classes", as the drop-in
 * streams claim it: §3.1 "The ObjectInputStream Class" (what {@code readObject} gives, which
 * constructor runs), §3.2 "The ObjectInputStream.GetField Class", §3.4 "The readObject Method"
 * (class-specific data after the default fields, reading less or more than was written, objects
 * where primitive data stands), §3.5 "The readExternal Method" and §3.6 "The readResolve Method".
 * §3.3 ("The ObjectInputValidation Interface") is {@link ValidationConformanceTest}'s, the
 * exceptions of every section {@link ExceptionsConformanceTest}'s and unshared reads {@link
 * UnsharedConformanceTest}'s. Every program runs on the JDK's streams and on Codese's ({@link
 * SideBySide}), which must observe the same: facts, hook calls in order, and what was thrown.
 */
@Timeout(120)
class ReadingConformanceTest {
  /** The first class of its hierarchy that is not serializable: its no-arg constructor runs. */
  static class Base {
    int base;

    Base() {
      SideBySide.log("Base()");
      base = 7;
    }
  }

  /** Writes class-specific data after its fields and reads it back as told by {@code mode}. */
  static final class Custom extends Base implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    /** How readObject reads: 0 all, 1 less than written, 2 more, 3 an object where an int is. */
    static int mode;

    int a = 1;
    String s = "s";
    transient List<String> facts = new ArrayList<>();

    Custom() {
      SideBySide.log("Custom() must not run");
    }

    Custom(int a) {
      this.a = a;
    }

    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(41);
      out.writeUTF("extra");
      out.writeObject(List.of("x", "y"));
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      facts = new ArrayList<>();
      facts.add("fields " + a + " " + s + " base " + base);
      switch (mode) {
        case 0 -> facts.add("all " + in.readInt() + " " + in.readUTF() + " " + in.readObject());
        case 1 -> facts.add("less " + in.readInt());
        case 2 -> {
          facts.add("more " + in.readInt() + " " + in.readUTF() + " " + in.readObject());
          facts.add("read() " + in.read());
          facts.add("readInt " + thrown(in::readInt));
          facts.add("readObject " + thrown(in::readObject));
        }
        default -> facts.add("object where an int is: " + thrown(in::readObject));
      }
      SideBySide.log("readObject " + mode);
    }
  }

  /** Reads its fields with {@code readFields}. */
  static final class ByGetField implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    int n = 5;
    String text = "t";
    transient List<String> facts;

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField f = in.readFields();
      facts = new ArrayList<>();
      facts.add("n " + f.get("n", -1) + " defaulted " + f.defaulted("n"));
      facts.add("text " + f.get("text", null));
      facts.add("missing " + thrown(() -> f.get("nope", 0)));
      facts.add("wrong type " + thrown(() -> f.get("n", 0L)));
      n = f.get("n", -1);
      text = (String) f.get("text", null);
    }
  }

  /** Replaced on reading by a canonical instance per key. */
  static final class Interned implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    static final Interned ONE = new Interned(1);
    final int key;

    Interned(int key) {
      this.key = key;
    }

    @Serial
    private Object readResolve() {
      SideBySide.log("readResolve " + key);
      return key == 1 ? ONE : this;
    }
  }

  /** Replaced on reading by an object of another class. */
  static final class Token implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    String value = "v";

    @Serial
    private Object readResolve() {
      return new StringBuilder(value).append("!").toString();
    }
  }

  /** Writes and reads its own form, objects included. */
  public static final class Ext implements Externalizable {
    int x;
    Object ref;

    public Ext() {
      SideBySide.log("Ext()");
    }

    Ext(int x, Object ref) {
      this.x = x;
      this.ref = ref;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(x);
      out.writeObject(ref);
      out.writeObject(ref);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
      x = in.readInt();
      Object first = in.readObject();
      Object second = in.readObject();
      ref = first;
      SideBySide.log("readExternal " + x + " " + first + " same " + (first == second));
    }
  }

  /** What {@code call} threw, by type, or "none". */
  private static String thrown(ThrowingCall call) {
    try {
      call.call();
      return "none";
    } catch (OptionalDataException e) {
      return "OptionalDataException eof " + e.eof + " length " + e.length;
    } catch (EOFException e) {
      return "EOFException";
    } catch (Exception e) {
      return e.getClass().getName();
    }
  }

  interface ThrowingCall {
    Object call() throws Exception;
  }

  private static Outcome custom(int mode) throws Exception {
    Custom.mode = mode;
    Custom c = new Custom(3);
    return SideBySide.same(
        out -> {
          out.writeObject(c);
          out.writeObject("after");
        },
        (in, facts) -> {
          facts.addAll(((Custom) in.readObject()).facts);
          facts.add("next " + in.readObject());
        });
  }

  /**
   * §3.4: {@code readObject} reads the default fields, then the class-specific data in the order
   * written; §3.1: of a class whose first non-serializable superclass is {@code Base}, only {@code
   * Base()} runs.
   */
  @Test
  void classSpecificDataReadsBackInOrder() throws Exception {
    Outcome jdk = custom(0);
    assertEquals(List.of("fields 3 s base 7", "all 41 extra [x, y]", "next after"), jdk.facts());
    assertEquals(List.of("Base()", "readObject 0"), jdk.log());
  }

  /** §3.4: data a {@code readObject} leaves unread is skipped; the next object reads as written. */
  @Test
  void unreadClassSpecificDataIsSkipped() throws Exception {
    assertEquals(List.of("fields 3 s base 7", "less 41", "next after"), custom(1).facts());
  }

  /**
   * §3.4: past the end of its class-specific data, {@code read} gives -1, {@code readInt} throws
   * {@code EOFException} and {@code readObject} an {@code OptionalDataException} with {@code eof}.
   */
  @Test
  void readingPastTheClassSpecificDataMeetsItsEnd() throws Exception {
    Outcome jdk = custom(2);
    assertEquals("read() -1", jdk.facts().get(2));
    assertEquals("readInt EOFException", jdk.facts().get(3));
    assertEquals("readObject OptionalDataException eof true length 0", jdk.facts().get(4));
  }

  /**
   * §3.4 and {@code ObjectInputStream.readObject}'s Javadoc: an object read where primitive data
   * stands throws {@code OptionalDataException} with the bytes of data left; the rest of the object
   * still restores.
   */
  @Test
  void anObjectReadWherePrimitiveDataStands() throws Exception {
    Outcome jdk = custom(3);
    assertEquals(
        "object where an int is: OptionalDataException eof false length 4",
        jdk.facts().get(1).replaceFirst("length \\d+", "length 4"));
    assertEquals("none", jdk.thrown());
  }

  /**
   * §3.2: {@code readFields} gives the stream's values; {@code get} of a name the stream lacks or
   * of another type throws {@code IllegalArgumentException}.
   */
  @Test
  void getFieldGivesTheStreamsValues() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> out.writeObject(new ByGetField()),
            (in, facts) -> facts.addAll(((ByGetField) in.readObject()).facts));
    assertEquals(
        List.of(
            "n 5 defaulted false",
            "text t",
            "missing java.lang.IllegalArgumentException",
            "wrong type java.lang.IllegalArgumentException"),
        jdk.facts());
  }

  /**
   * §3.6: every reference to an object whose {@code readResolve} replaces it gets the replacement,
   * shared references the same one, also of another class.
   */
  @Test
  void readResolveReplacesEveryReference() throws Exception {
    Interned other = new Interned(2);
    Object[] graph = {new Interned(1), new Interned(1), other, other, new Token()};
    Outcome jdk =
        SideBySide.same(
            out -> out.writeObject(graph),
            (in, facts) -> {
              Object[] read = (Object[]) in.readObject();
              facts.add("canonical " + (read[0] == Interned.ONE) + " " + (read[1] == Interned.ONE));
              facts.add("shared " + (read[2] == read[3]) + " key " + ((Interned) read[2]).key);
              facts.add("token " + read[4].getClass().getSimpleName() + " " + read[4]);
            });
    assertEquals(
        List.of("canonical true true", "shared true key 2", "token String v!"), jdk.facts());
  }

  /**
   * §3.5: an {@code Externalizable} is made with its public no-arg constructor and reads what
   * {@code writeExternal} wrote, objects and their sharing included.
   */
  @Test
  void readExternalReadsItsOwnForm() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> out.writeObject(new Ext(9, List.of(1, 2))),
            (in, facts) -> {
              Ext e = (Ext) in.readObject();
              facts.add("x " + e.x + " ref " + e.ref);
            });
    assertEquals(List.of("x 9 ref [1, 2]"), jdk.facts());
    assertEquals(List.of("Ext()", "readExternal 9 [1, 2] same true"), jdk.log());
  }

  /** §3.1: {@code null}, strings, arrays and enum constants read back as written. */
  @Test
  void valuesReadBackAsWritten() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(null);
              out.writeObject("text");
              out.writeObject(new int[][] {{1}, {2, 3}});
              out.writeObject(java.util.concurrent.TimeUnit.SECONDS);
            },
            (in, facts) -> {
              facts.add("null " + (in.readObject() == null));
              facts.add("string " + in.readObject());
              facts.add("array " + java.util.Arrays.deepToString((Object[]) in.readObject()));
              facts.add("enum same " + (in.readObject() == java.util.concurrent.TimeUnit.SECONDS));
            });
    assertEquals(
        List.of("null true", "string text", "array [[1], [2, 3]]", "enum same true"), jdk.facts());
  }
}
