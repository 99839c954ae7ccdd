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
 * Crafted snapshots that name a class the loader does not find, beside {@link GoneSuperclassTest}'s
 * side-by-side cases: a class not found is admitted only as a removed superclass whose data the
 * snapshot carries, and nothing a crafted file puts in that role does more than skip data.
 */
class GoneSuperclassCodeTest {
  /** The live class; at capture it extended a class that is gone now. */
  static final class Thing implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
  }

  private static final String GONE = "org.codese.gone.NoSuchBase";
  private static final String GONE_INTERNAL = GONE.replace('.', '/');
  private static final String THING = Thing.class.getName().replace('.', '/');

  /** Class 0 {@link Thing} (allocated in slot 0), class 1 the gone class with field {@code b}. */
  private static Crafted thing() {
    Crafted c = new Crafted();
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(new ClassEntry(GONE, List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    return c;
  }

  @Test
  void aSetterOfTheGoneClassIsTakenOut() throws Exception {
    Crafted c = thing();
    int b = c.constant(new Constant.Setter(1, "b", "I"));
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, ch -> ch.select(0, null).setInt(b, 7).setInt(a, 9));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, t.a);
  }

  /**
   * The generated classes of the gone class's nest are never checked, defined or run: whatever a
   * crafted one holds (here a store into the live class, which would be refused elsewhere) does
   * nothing.
   */
  @Test
  void theGoneClassesNestIsNeverDefined() throws Exception {
    Crafted c = thing();
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, 1, ch -> ch.select(0, GONE_INTERNAL).putInt(GONE_INTERNAL, "b", 7));
    c.code(1, 1, ch -> ch.select(0, null).setInt(a, 5));
    c.code(1, 0, ch -> ch.select(0, THING).putInt(THING, "a", 9));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, t.a);
  }

  /**
   * Hostile: an object of the gone class allocated as the root: the class not found, as before
   * ({@link NotMadeCodeTest} has every other live use; an object of it that nothing live refers to
   * is not made).
   */
  @Test
  void anAllocatedGoneClassAsTheRootIsNotFound() {
    Crafted c = new Crafted().slots(2);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(new ClassEntry(GONE, List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int gone = c.constant(new Constant.Allocator(1, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc).alloc(1, gone));
    c.root(1);
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(c.bytes()));
    assertEquals(GONE, e.classname);
    assertInstanceOf(ClassNotFoundException.class, e.getCause());
  }

  /** Hostile: the gone class as a {@code Class} constant: not found. */
  @Test
  void theGoneClassAsAClassConstantIsNotFound() {
    Crafted c = thing();
    c.constant(new Constant.TypeRef(1));
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(c.bytes()));
    assertEquals(GONE, e.classname);
  }

  /** Hostile: a setter of a field of the gone class that its entry does not record. */
  @Test
  void aSetterOfAnUnrecordedFieldOfTheGoneClassIsRefused() {
    Crafted c = thing();
    int x = c.constant(new Constant.Setter(1, "unrecorded", "I"));
    c.code(1, ch -> ch.select(0, null).setInt(x, 7));
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("does not record"), e.getMessage());
  }

  /** Hostile: a cast to the gone class in code that runs (Codese's own package): refused. */
  @Test
  void aCastToTheGoneClassOutsideItsNestIsRefused() {
    Crafted c = thing();
    c.code(1, ch -> ch.select(0, GONE_INTERNAL));
    assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
  }

  /** Hostile: a readObject replay of the gone class on a slot that holds a string. */
  @Test
  void aHookOfTheGoneClassOnAnEmptySlotIsRefused() {
    Crafted c = new Crafted().slots(2);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(new ClassEntry(GONE, List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int hook =
        c.constant(
            new Constant.Hook(
                Constant.HookKind.SLOT,
                1,
                1,
                new org.codese.program.Tape(
                    new byte[4], new int[] {org.codese.program.Tape.FIELDS, 0})));
    int steps =
        c.constant(new Constant.PrimArray(new int[] {org.codese.program.Grammar.STEP_HOOK, hook}));
    c.code(0, ch -> ch.alloc(0, alloc).newString(1, "not an object of the class"));
    c.code(2, ch -> ch.runSteps(steps));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("does not find"), e.getMessage());
  }
}
