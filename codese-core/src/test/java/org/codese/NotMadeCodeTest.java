package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;

/**
 * Crafted snapshots (checksums valid) that allocate an object of a class the loader does not find,
 * beside {@link NotMadeTest}'s side-by-side cases: such an object is not made (its slot stays
 * {@code null}) only where nothing live refers to it. Every live use a crafted file can give it (a
 * live field, an element, the root, a cast, a field of a class still found, a replay that runs, a
 * loop's live column, a finish step's live store) is the class not found, before anything runs, so
 * a slot that was not made never reaches a live reference, and its allocator allocates nothing.
 */
class NotMadeCodeTest {
  /** The live class: {@code extra} was a field at capture and is gone now. */
  static final class Thing implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    Object live;
    Thing next;
  }

  /** A class whose {@code readObject} reads an object from its data. */
  static final class Reader implements Serializable {
    private static final long serialVersionUID = 1L;
    transient Object read;

    private void readObject(java.io.ObjectInputStream in)
        throws java.io.IOException, ClassNotFoundException {
      in.defaultReadObject();
      read = in.readObject();
    }
  }

  private static final String GONE = "org.codese.gone.NoSuchClass";
  private static final String GONE_INTERNAL = GONE.replace('.', '/');
  private static final String THING = Thing.class.getName().replace('.', '/');

  /**
   * Slot 0 a {@link Thing} (class 0), slot 1 an object of the gone class 1 with field {@code g}.
   */
  private static Crafted twoObjects() {
    return twoObjects(2, -1);
  }

  /**
   * {@link #twoObjects()} in a table of {@code slots}, whose create phase also makes an {@code
   * Object[1]} in slot 2 ({@code array} 2) or allocates a {@link Thing} into slot 1 again ({@code
   * array} 1).
   */
  private static Crafted twoObjects(int slots, int array) {
    Crafted c = new Crafted().slots(slots);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(),
                List.of(
                    new FieldEntry("a", "I", true),
                    new FieldEntry("extra", "Ljava/lang/Object;", true),
                    new FieldEntry("live", "Ljava/lang/Object;", true)),
                1L,
                true));
    int g = c.type(new ClassEntry(GONE, List.of(new FieldEntry("g", "I", true)), 1L, true));
    int thing = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int gone = c.constant(new Constant.Allocator(g, Mode.SERIAL));
    c.code(
        0,
        ch -> {
          ch.alloc(0, thing).alloc(1, gone);
          if (array == 2) {
            ch.newObjectArray(2, 1);
          } else if (array == 1) {
            ch.alloc(1, thing);
          }
        });
    return c;
  }

  private static void notFound(Crafted c) {
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(c.bytes()));
    assertEquals(GONE, e.classname);
    assertInstanceOf(ClassNotFoundException.class, e.getCause());
  }

  /** Referred to by no statement: not made; the rest restores. */
  @Test
  void anObjectOfAGoneClassNothingRefersToIsNotMade() throws Exception {
    Crafted c = twoObjects();
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, ch -> ch.select(0, null).setInt(a, 9));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, t.a);
  }

  /**
   * Stored into a removed field and its own class's fields set: both stores taken out, the object
   * not made. With {@code readObject} data of its class (skipped) that names it too.
   */
  @Test
  void anObjectOfAGoneClassInSkippedDataIsNotMade() throws Exception {
    Crafted c = twoObjects();
    int extra = c.constant(new Constant.Setter(0, "extra", "Ljava/lang/Object;"));
    int g = c.constant(new Constant.Setter(1, "g", "I"));
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    int hook =
        c.constant(
            new Constant.Hook(
                Constant.HookKind.SLOT,
                1,
                1,
                new Tape(new byte[0], new int[] {Tape.FIELDS, 0, Tape.OBJECT, 1})));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(1, ch -> ch.select(0, null).setRef(extra, 1).setInt(a, 5).select(1, null).setInt(g, 3));
    c.code(2, ch -> ch.runSteps(steps));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(5, t.a);
    assertNull(t.live);
  }

  /** Hostile: stored into a live field: not found, never a null there. */
  @Test
  void anObjectNotMadeInALiveFieldIsNotFound() {
    Crafted c = twoObjects();
    int live = c.constant(new Constant.Setter(0, "live", "Ljava/lang/Object;"));
    c.code(1, ch -> ch.select(0, null).setRef(live, 1));
    notFound(c);
  }

  /** Hostile: stored into a removed field and a live one. */
  @Test
  void anObjectNotMadeInARemovedAndALiveFieldIsNotFound() {
    Crafted c = twoObjects();
    int extra = c.constant(new Constant.Setter(0, "extra", "Ljava/lang/Object;"));
    int live = c.constant(new Constant.Setter(0, "live", "Ljava/lang/Object;"));
    c.code(1, ch -> ch.select(0, null).setRef(extra, 1).setRef(live, 1));
    notFound(c);
  }

  /** Hostile: the root. */
  @Test
  void anObjectNotMadeAsTheRootIsNotFound() {
    Crafted c = twoObjects().root(1);
    notFound(c);
  }

  /** Hostile: an element of an array. */
  @Test
  void anObjectNotMadeInAnArrayIsNotFound() {
    Crafted c = twoObjects(3, 2);
    c.code(1, ch -> ch.select(2, "[Ljava/lang/Object;").putElement(0, 1));
    notFound(c);
  }

  /** Hostile: a field of a class still found set on it (as if it were a {@link Thing}). */
  @Test
  void aLiveFieldOfAnObjectNotMadeIsNotFound() {
    Crafted c = twoObjects();
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, ch -> ch.select(1, null).setInt(a, 5));
    notFound(c);
  }

  /** Hostile: cast to a class the code may name, to {@code putfield} into it. */
  @Test
  void aCastOfAnObjectNotMadeIsNotFound() {
    Crafted c = twoObjects();
    c.code(1, 0, ch -> ch.select(1, THING).putInt(THING, "a", 9));
    notFound(c);
  }

  /** Hostile: the data of a replay that runs (a class still found) names it. */
  @Test
  void anObjectNotMadeInTheDataOfALiveReplayIsNotFound() {
    Crafted c = new Crafted().slots(2);
    int r = c.type(new ClassEntry(Reader.class.getName(), List.of(), 1L, true));
    int g = c.type(new ClassEntry(GONE, List.of(), 1L, true));
    int reader = c.constant(new Constant.Allocator(r, Mode.SERIAL));
    int gone = c.constant(new Constant.Allocator(g, Mode.SERIAL));
    int hook =
        c.constant(
            new Constant.Hook(
                Constant.HookKind.SLOT,
                r,
                0,
                new Tape(new byte[0], new int[] {Tape.FIELDS, 0, Tape.OBJECT, 1})));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(0, ch -> ch.alloc(0, reader).alloc(1, gone));
    c.code(2, ch -> ch.runSteps(steps));
    notFound(c);
  }

  /** Hostile: a replay of a class still found on it. */
  @Test
  void aLiveReplayOnAnObjectNotMadeIsNotFound() {
    Crafted c = twoObjects();
    int hook =
        c.constant(
            new Constant.Hook(
                Constant.HookKind.SLOT, 0, 1, new Tape(new byte[0], new int[] {Tape.FIELDS, 0})));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(2, ch -> ch.runSteps(steps));
    notFound(c);
  }

  /** Hostile: a finish step stores it into a live field. */
  @Test
  void aFinishStepStoringAnObjectNotMadeIsNotFound() {
    Crafted c = twoObjects();
    int live = c.constant(new Constant.Setter(0, "live", "Ljava/lang/Object;"));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_FIELD, live, 0, 1}));
    c.code(2, ch -> ch.runSteps(steps));
    notFound(c);
  }

  /** Hostile: a cluster loop sets a field of a class still found on objects not made. */
  @Test
  void aClusterLoopOverObjectsNotMadeIsNotFound() {
    Crafted c = new Crafted().slots(2);
    int g = c.type(new ClassEntry(GONE, List.of(new FieldEntry("g", "I", true)), 1L, true));
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    int gone = c.constant(new Constant.Allocator(g, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(0, ch -> ch.allocLoop(ids, gone));
    c.code(1, t, ch -> ch.clusterInt(ids, values, THING, "a"));
    notFound(c);
  }

  /**
   * Hostile: a second allocation into a slot that was not made (a found class smuggled in where the
   * program check saw the object not made): refused as any second fill.
   */
  @Test
  void aSlotNotMadeIsNotFilledAgain() {
    Crafted c = twoObjects(2, 1);
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    org.junit.jupiter.api.Assertions.assertTrue(
        e.getMessage().contains("a second time"), e.getMessage());
  }

  /** The gone class's nest is still never defined: its putfields do nothing. */
  @Test
  void theNestOfTheClassOfAnObjectNotMadeIsNeverDefined() throws Exception {
    Crafted c = twoObjects();
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, 1, ch -> ch.select(1, GONE_INTERNAL).putInt(GONE_INTERNAL, "g", 7));
    c.code(1, ch -> ch.select(0, null).setInt(a, 2));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(2, t.a);
  }
}
