package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;

/**
 * A {@code Serializable} superclass removed since capture from the hierarchy of some objects while
 * the snapshot also holds objects of the class itself ({@link RemovedSuperclassInGraphTest}), on
 * the code paths that test's per-version loaders never take: {@code putfield} in the removed
 * class's nest (the subclass's objects selected by a cast to it), and a cluster loop over objects
 * of both classes cast to it. The stores are dropped on the objects whose class no longer has the
 * removed class and kept on the objects of the class itself. And crafted snapshots that try to use
 * the per-object drops for more than skipping that data, each rejected before anything runs.
 */
class RemovedSuperclassInGraphCodeTest {
  /** The live class: at capture it extended {@link OldBase}. */
  static final class Thing implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
  }

  /** The former superclass, still on the class path, with objects of its own in the snapshot. */
  static class OldBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int b;
    int unrecorded;
  }

  private static final String THING = Thing.class.getName().replace('.', '/');
  private static final String BASE = OldBase.class.getName().replace('.', '/');
  private static final String OBJECTS = "[Ljava/lang/Object;";

  /** Class 0 {@link Thing}, class 1 {@link OldBase} with field {@code b}. */
  private static Crafted twoClasses(int slots) {
    Crafted c = new Crafted().slots(slots);
    c.type(
        new ClassEntry(Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(
        new ClassEntry(OldBase.class.getName(), List.of(new FieldEntry("b", "I", true)), 1L, true));
    return c;
  }

  /**
   * Things in {@code things}, bases in {@code bases}, and an {@code Object[]} of them all in the
   * last slot, the root.
   */
  private static Crafted graph(int[] things, int[] bases) {
    return graph(things, bases, c -> ch -> {});
  }

  /**
   * {@link #graph(int[], int[])}, whose set phase in Codese's package (host -1) goes on with what
   * {@code more} makes of the crafted file (its constants).
   */
  private static Crafted graph(
      int[] things,
      int[] bases,
      java.util.function.Function<Crafted, java.util.function.Consumer<Crafted.Chunk>> more) {
    int n = things.length + bases.length;
    Crafted c = twoClasses(n + 1);
    int allocThing = c.constant(new Constant.Allocator(0, Mode.SERIAL));
    int allocBase = c.constant(new Constant.Allocator(1, Mode.SERIAL));
    java.util.function.Consumer<Crafted.Chunk> then = more.apply(c);
    c.code(
        0,
        ch -> {
          for (int t : things) {
            ch.alloc(t, allocThing);
          }
          for (int b : bases) {
            ch.alloc(b, allocBase);
          }
          ch.newObjectArray(n, n);
        });
    c.code(
        1,
        ch -> {
          ch.select(n, OBJECTS);
          for (int i = 0; i < n; i++) {
            ch.putElement(i, i);
          }
          then.accept(ch);
        });
    return c.root(n);
  }

  private static Object[] restore(Crafted c) throws Exception {
    return assertInstanceOf(Object[].class, Codese.fromBytes(c.bytes()));
  }

  @Test
  void putfieldsAreDroppedOnTheSubclassObjectAndKeptOnTheClassItself() throws Exception {
    Crafted c = graph(new int[] {0}, new int[] {1});
    c.code(
        1, 1, ch -> ch.select(0, BASE).putInt(BASE, "b", 7).select(1, BASE).putInt(BASE, "b", 8));
    c.code(1, 0, ch -> ch.select(0, THING).putInt(THING, "a", 9));
    Object[] got = restore(c);
    assertEquals(9, ((Thing) got[0]).a);
    assertEquals(8, ((OldBase) got[1]).b);
  }

  @Test
  void aClusterLoopOverBothClassesKeepsTheRowsOfTheClassItself() throws Exception {
    Crafted c = graph(new int[] {0, 1}, new int[] {2, 3});
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 2, 1, 3}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6, 7, 8}));
    c.code(1, 1, ch -> ch.clusterInt(ids, values, BASE, "b"));
    Object[] got = restore(c);
    assertEquals(6, ((OldBase) got[2]).b);
    assertEquals(8, ((OldBase) got[3]).b);
  }

  /** Every row of the loop is an object of the subclass: the loop runs over no rows. */
  @Test
  void aClusterLoopOverSubclassObjectsOnlyRunsOverNone() throws Exception {
    Crafted c = graph(new int[] {0, 1}, new int[] {2});
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(1, 1, ch -> ch.clusterInt(ids, values, BASE, "b"));
    c.code(1, 0, ch -> ch.clusterInt(ids, values, THING, "a"));
    Object[] got = restore(c);
    assertEquals(5, ((Thing) got[0]).a);
    assertEquals(6, ((Thing) got[1]).a);
    assertEquals(0, ((OldBase) got[2]).b);
  }

  @Test
  void aSetterIsDroppedOnTheSubclassObjectAndKeptOnTheClassItself() throws Exception {
    Crafted c =
        graph(
            new int[] {0},
            new int[] {1},
            k -> {
              int b = k.constant(new Constant.Setter(1, "b", "I"));
              int a = k.constant(new Constant.Setter(0, "a", "I"));
              return ch ->
                  ch.select(0, null).setInt(b, 7).setInt(a, 9).select(1, null).setInt(b, 8);
            });
    Object[] got = restore(c);
    assertEquals(9, ((Thing) got[0]).a);
    assertEquals(8, ((OldBase) got[1]).b);
  }

  /**
   * Hostile: a {@code putfield} into a field of the removed class that its class entry does not
   * record, on an object of the subclass: only recorded fields' stores are dropped; rejected.
   */
  @Test
  void hostilePutfieldIntoAnUnrecordedFieldIsRejected() {
    Crafted c = graph(new int[] {0}, new int[] {1});
    c.code(1, 1, ch -> ch.select(0, BASE).putInt(BASE, "unrecorded", 7));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("of an object of " + Thing.class.getName()), e.getMessage());
  }

  /**
   * Hostile: the subclass object cast to the removed class (null once adapted), then set through a
   * setter of its own class: rejected, not run into a {@code NullPointerException}.
   */
  @Test
  void hostileStoreIntoTheRealClassAfterTheDroppedCastIsRejected() {
    Crafted c = graph(new int[] {0}, new int[] {1});
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, 1, ch -> ch.select(0, BASE).setInt(a, 9));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("a class its class no longer has"), e.getMessage());
  }

  /** Hostile: a cluster loop over both classes storing into an unrecorded field: rejected. */
  @Test
  void hostileClusterLoopIntoAnUnrecordedFieldIsRejected() {
    Crafted c = graph(new int[] {0}, new int[] {1});
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(1, 1, ch -> ch.clusterInt(ids, values, BASE, "unrecorded"));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("unrecorded"), e.getMessage());
  }

  /**
   * Hostile: the subclass object cast to a class whose entry records no fields, though objects of
   * it are allocated: such a class carries no data, so its cast is never taken for one made to
   * store into a removed class's fields; rejected, not run into a {@code ClassCastException}.
   */
  @Test
  void hostileCastToAClassWithoutRecordedFieldsIsRejected() {
    Crafted c = new Crafted().slots(2);
    c.type(
        new ClassEntry(Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(new ClassEntry(OldBase.class.getName(), List.of(), 1L, true));
    int allocThing = c.constant(new Constant.Allocator(0, Mode.SERIAL));
    int allocBase = c.constant(new Constant.Allocator(1, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, allocThing).alloc(1, allocBase));
    c.code(1, 1, ch -> ch.select(0, BASE));
    c.code(1, 0, ch -> ch.select(0, THING).putInt(THING, "a", 9));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("to " + OldBase.class.getName()), e.getMessage());
  }
}
