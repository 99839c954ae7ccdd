package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.codese.testkit.Box;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.junit.jupiter.api.Test;

/**
 * {@code writeUnshared} and {@code readUnshared} as the Java Object Serialization Specification
 * defines them (JOSS §2.1 "The ObjectOutputStream Class": an unshared object is written as a new
 * object each time, and no later write refers back to it; §3.1 "The ObjectInputStream Class":
 * {@code readUnshared} of a back reference, and a back reference to an object read unshared, are
 * {@code ObjectStreamException}s) and as {@code ObjectInputStream} implements them (its {@code
 * readUnshared} Javadoc: a {@code readResolve} result may be shared, and an array it returns is
 * returned as a copy). Every program runs on the JDK's streams and on Codese's ({@link
 * SideBySide}); the reader records which objects are the same instance.
 */
class UnsharedConformanceTest {
  enum Color {
    RED
  }

  record Pair(int a, String b) implements Serializable {}

  /** Numbers the objects a reader gets, so that facts say which are the same instance. */
  static final class Ids {
    private final List<Object> seen = new ArrayList<>();

    String of(Object o) {
      if (o == null) {
        return "null";
      }
      for (int i = 0; i < seen.size(); i++) {
        if (seen.get(i) == o) {
          return "#" + i;
        }
      }
      seen.add(o);
      return "#" + (seen.size() - 1) + " (new " + o.getClass().getSimpleName() + ")";
    }
  }

  /** Reads {@code n} objects, each with {@code readUnshared} where {@code unshared} says so. */
  private static SideBySide.Reader reads(boolean... unshared) {
    return (in, facts) -> {
      Ids ids = new Ids();
      for (boolean u : unshared) {
        Object o = u ? in.readUnshared() : in.readObject();
        facts.add((u ? "readUnshared " : "readObject ") + ids.of(o));
      }
    };
  }

  /**
   * §2.1: {@code writeUnshared} writes a new object each time, even of an object written before.
   */
  @Test
  void writeUnsharedWritesANewObjectEachTime() throws Exception {
    Box b = new Box(1);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(b);
              out.writeUnshared(b);
              out.writeUnshared(b);
              out.writeObject(b);
            },
            reads(false, false, false, false));
    assertEquals(
        List.of(
            "readObject #0 (new Box)",
            "readObject #1 (new Box)",
            "readObject #2 (new Box)",
            "readObject #0"),
        jdk.facts());
  }

  /** §2.1: a later {@code writeObject} does not refer back to an unshared copy. */
  @Test
  void aLaterWriteObjectDoesNotReferBackToAnUnsharedCopy() throws Exception {
    int[] array = {1, 2, 3};
    String s = new String("text");
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeUnshared(array);
              out.writeObject(array);
              out.writeObject(array);
              out.writeUnshared(s);
              out.writeObject(s);
              out.writeUnshared(Color.RED);
              out.writeObject(Color.RED);
            },
            reads(false, false, false, false, false, false, false));
    assertEquals("readObject #1", jdk.facts().get(2));
  }

  /** §2.1: only the object itself is unshared; what it refers to is shared as usual. */
  @Test
  void whatAnUnsharedObjectRefersToIsShared() throws Exception {
    Box inner = new Box(2);
    Box outer = new Box(1);
    outer.ref = inner;
    Box self = new Box(3);
    self.ref = self;
    SideBySide.same(
        out -> {
          out.writeObject(inner);
          out.writeUnshared(outer);
          out.writeUnshared(self);
        },
        (in, facts) -> {
          Ids ids = new Ids();
          Object i = in.readObject();
          Box o = (Box) in.readUnshared();
          Box c = (Box) in.readUnshared();
          facts.add(
              ids.of(i)
                  + " "
                  + ids.of(o)
                  + " "
                  + ids.of(o.ref)
                  + " "
                  + ids.of(c)
                  + " "
                  + ids.of(c.ref)
                  + " "
                  + ids.of(((Box) c.ref).ref));
        });
  }

  /**
   * §3.1: after {@code readUnshared}, a back reference to the object, top-level or nested, is an
   * {@code InvalidObjectException} ("cannot read back reference to unshared object"); the stream
   * goes on with the next object.
   */
  @Test
  void aBackReferenceToAnUnsharedObjectIsRefused() throws Exception {
    Box b = new Box(1);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(b);
              out.writeObject(b);
              out.writeObject("next");
            },
            (in, facts) -> {
              facts.add("readUnshared " + in.readUnshared());
              try {
                in.readObject();
              } catch (java.io.InvalidObjectException e) {
                facts.add(e.getMessage());
              }
              facts.add("then " + in.readObject());
            });
    assertEquals(
        List.of("readUnshared Box1", "cannot read back reference to unshared object", "then next"),
        jdk.facts());
    Box holder = new Box(2);
    holder.ref = b;
    jdk =
        SideBySide.same(
            out -> {
              out.writeObject(b);
              out.writeObject(holder);
            },
            reads(true, false));
    assertEquals(
        java.io.InvalidObjectException.class.getName()
            + ": cannot read back reference to unshared object",
        jdk.thrown());
  }

  /**
   * §3.1: {@code readUnshared} of an object written before (a back reference) is an {@code
   * InvalidObjectException} ("cannot read back reference as unshared").
   */
  @Test
  void readUnsharedOfABackReferenceIsRefused() throws Exception {
    Box b = new Box(1);
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(b);
              out.writeObject(b);
            },
            reads(false, true));
    assertEquals(
        java.io.InvalidObjectException.class.getName() + ": cannot read back reference as unshared",
        jdk.thrown());
  }

  /**
   * §3.1 for every kind of object: arrays (the issue's case: an array read unshared, then shared),
   * strings, enum constants, records, {@code Class} objects, and {@code null}.
   */
  @Test
  void everyKindOfObjectReadUnsharedRefusesBackReferences() throws Exception {
    for (Object o :
        new Object[] {
          new int[] {4, 5},
          new Object[] {"x"},
          new String("s"),
          Color.RED,
          new Pair(1, "one"),
          TimeUnit.class,
          42L
        }) {
      Outcome jdk =
          SideBySide.same(
              out -> {
                out.writeObject(o);
                out.writeObject(o);
              },
              reads(true, false));
      assertTrue(
          jdk.thrown().endsWith("cannot read back reference to unshared object"),
          o.getClass() + ": " + jdk.thrown());
    }
    SideBySide.same(
        out -> {
          out.writeObject(null);
          out.writeObject(null);
        },
        reads(true, true));
  }

  /** Resolves to what its field says; counts its calls. */
  static final class Resolving implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Object SINGLETON = new Object();
    static final int[] SHARED_ARRAY = {7, 8};
    static Object lastResult;
    final String to;

    Resolving(String to) {
      this.to = to;
    }

    private Object readResolve() {
      SideBySide.log("readResolve " + to);
      lastResult =
          switch (to) {
            case "this" -> this;
            case "singleton" -> SINGLETON;
            case "array" -> SHARED_ARRAY;
            default -> new Box(9);
          };
      return lastResult;
    }
  }

  /**
   * {@code readUnshared}'s Javadoc and {@code readOrdinaryObject}: when {@code readResolve}
   * returned another object, back references get that object (no exception); an array it returned
   * is returned as a copy, which later back references get too; an object resolved to itself stays
   * unshared.
   */
  @Test
  void readResolveResultsReadUnshared() throws Exception {
    for (String to : List.of("this", "singleton", "array", "new")) {
      Resolving r = new Resolving(to);
      Outcome jdk =
          SideBySide.same(
              out -> {
                out.writeObject(r);
                out.writeObject(r);
              },
              (in, facts) -> {
                Ids ids = new Ids();
                Object u = in.readUnshared();
                facts.add(
                    "readUnshared "
                        + ids.of(u)
                        + ", the readResolve result itself: "
                        + (u == Resolving.lastResult));
                try {
                  facts.add("readObject " + ids.of(in.readObject()));
                } catch (java.io.InvalidObjectException e) {
                  facts.add(e.getMessage());
                }
              });
      assertEquals(List.of("readResolve " + to), jdk.log(), to);
    }
  }

  /** Resolves to the array of one kind kept in {@link #ARRAYS}. */
  static final class ResolvingToArray implements Serializable {
    private static final long serialVersionUID = 1L;
    static final java.util.Map<String, Object> ARRAYS =
        java.util.Map.of(
            "Object[]",
            new Object[] {"x", 1},
            "int[]",
            new int[] {1, 2},
            "byte[]",
            new byte[] {3},
            "long[]",
            new long[] {4L, 5L},
            "char[]",
            new char[] {'c'},
            "double[]",
            new double[] {6.5},
            "float[]",
            new float[] {7.5f},
            "short[]",
            new short[] {8, 9},
            "boolean[]",
            new boolean[] {true, false});
    final String kind;

    ResolvingToArray(String kind) {
      this.kind = kind;
    }

    private Object readResolve() {
      return ARRAYS.get(kind);
    }
  }

  /**
   * {@code readUnshared}'s Javadoc ("the returned object is a copy ... if readResolve returns an
   * array") and {@code ObjectInputStream.cloneArray}, for every kind of array: the caller gets a
   * new array with the same elements, and a later back reference gets that copy, not the array
   * {@code readResolve} returned.
   */
  @Test
  void aReadResolveArrayOfEveryKindIsCopiedWhenReadUnshared() throws Exception {
    for (String kind : new java.util.TreeSet<>(ResolvingToArray.ARRAYS.keySet())) {
      ResolvingToArray r = new ResolvingToArray(kind);
      Object original = ResolvingToArray.ARRAYS.get(kind);
      Outcome jdk =
          SideBySide.same(
              out -> {
                out.writeObject(r);
                out.writeObject(r);
              },
              (in, facts) -> {
                Object u = in.readUnshared();
                facts.add(
                    u.getClass().getSimpleName()
                        + " "
                        + java.util.Arrays.deepToString(new Object[] {u})
                        + ", a copy: "
                        + (u != original));
                facts.add("then the copy: " + (in.readObject() == u));
              });
      assertEquals(
          List.of(
              kind
                  + " "
                  + java.util.Arrays.deepToString(new Object[] {original})
                  + ", a copy: true",
              "then the copy: true"),
          jdk.facts(),
          kind);
      assertEquals("none", jdk.thrown(), kind);
    }
  }

  /** Counts {@code writeReplace} calls. */
  static final class Replaced implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object writeReplace() {
      SideBySide.log("writeReplace");
      return new Box(5);
    }
  }

  /**
   * §2.1 and {@code ObjectOutputStream}'s replacement table: an object written unshared is replaced
   * once; a later write of it writes that replacement again, as a new object, without calling
   * {@code writeReplace} again.
   */
  @Test
  void anUnsharedObjectIsReplacedOnce() throws Exception {
    Replaced r = new Replaced();
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeUnshared(r);
              out.writeObject(r);
              out.writeObject(r);
              out.writeUnshared(r);
            },
            reads(false, false, false, false));
    assertEquals(List.of("writeReplace"), jdk.log());
  }

  /** After {@code reset()}, nothing is shared, and replacements are made anew. */
  @Test
  void resetForgetsUnsharedReplacements() throws Exception {
    Replaced r = new Replaced();
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeUnshared(r);
              out.reset();
              out.writeObject(r);
            },
            reads(false, false));
    assertEquals(List.of("writeReplace", "writeReplace"), jdk.log());
  }

  /**
   * After {@code reset()} the reader forgets which objects it read unshared, with the rest of its
   * handles ({@code ObjectInputStream} clears its handle table at {@code TC_RESET}): an object
   * after the reset that takes the same number is an ordinary object, not a back reference.
   */
  @Test
  void resetForgetsObjectsReadUnshared() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeObject(new Box(1));
              out.reset();
              out.writeObject(new Box(2));
            },
            reads(true, false));
    assertEquals(List.of("readUnshared #0 (new Box)", "readObject #1 (new Box)"), jdk.facts());
    assertEquals("none", jdk.thrown());
  }

  /** Writes its child unshared, or shared, and reads it back unshared. */
  static final class Parent implements Serializable {
    private static final long serialVersionUID = 1L;
    final transient boolean unshared;
    transient Object child;

    Parent(boolean unshared, Object child) {
      this.unshared = unshared;
      this.child = child;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      if (unshared) {
        out.writeUnshared(child);
      } else {
        out.writeObject(child);
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      child = in.readUnshared();
    }
  }

  /**
   * §3.1 inside a class's own {@code readObject}: an object it reads unshared cannot be referred
   * back to by a later top-level object; one its {@code writeObject} wrote unshared is written anew
   * by a later {@code writeObject}.
   */
  @Test
  void readUnsharedInsideReadObject() throws Exception {
    Box child = new Box(1);
    for (boolean unshared : new boolean[] {true, false}) {
      Outcome jdk =
          SideBySide.same(
              out -> {
                out.writeObject(new Parent(unshared, child));
                out.writeObject(child);
              },
              (in, facts) -> {
                Ids ids = new Ids();
                Parent p = (Parent) in.readObject();
                facts.add("parent " + ids.of(p) + " child " + ids.of(p.child));
                facts.add("then " + ids.of(in.readObject()));
              });
      assertEquals(unshared, jdk.thrown().equals("none"), jdk.thrown());
    }
  }

  /** {@code readUnshared} where primitive data is next: {@code OptionalDataException}, as usual. */
  @Test
  void readUnsharedBeforePrimitiveData() throws Exception {
    Outcome jdk =
        SideBySide.same(
            out -> {
              out.writeInt(3);
              out.writeObject("x");
            },
            (in, facts) -> {
              try {
                in.readUnshared();
              } catch (java.io.OptionalDataException e) {
                facts.add("OptionalDataException length " + e.length + " eof " + e.eof);
              }
              facts.add("int " + in.readInt());
              facts.add("readUnshared " + in.readUnshared());
            });
    assertEquals("readUnshared x", jdk.facts().get(2));
  }
}
