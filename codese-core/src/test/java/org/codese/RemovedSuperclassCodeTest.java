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
 * A {@code Serializable} superclass removed since capture (specification section 5.6.2, "removing
 * classes"), on the code paths {@link CompatibleChangesTest}'s per-version loaders never take:
 * {@code putfield} in the removed class's nest (its objects selected by a cast to it, which the
 * loader turns into {@code null}) and a cluster loop over such objects; and crafted snapshots that
 * try to use the adaptation for more than skipping the removed class's data, each rejected before
 * anything runs.
 */
class RemovedSuperclassCodeTest {
  /** The live class: at capture it extended {@link OldBase}. */
  static final class Thing implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
  }

  /** The former superclass, still on the class path, no longer in {@link Thing}'s hierarchy. */
  static class OldBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int b;
    int unrecorded;
  }

  private static final String THING = Thing.class.getName().replace('.', '/');
  private static final String BASE = OldBase.class.getName().replace('.', '/');

  /** Class 0 {@link Thing} (allocated in slot 0), class 1 {@link OldBase} with field {@code b}. */
  private static Crafted thing() {
    Crafted c = new Crafted();
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(
        new ClassEntry(OldBase.class.getName(), List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    return c;
  }

  @Test
  void putfieldsInTheRemovedSuperclassNestAreTakenOut() throws Exception {
    Crafted c = thing();
    c.code(1, 1, ch -> ch.select(0, BASE).putInt(BASE, "b", 7));
    c.code(1, 0, ch -> ch.select(0, THING).putInt(THING, "a", 9));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, t.a);
  }

  @Test
  void aClusterLoopOverTheRemovedSuperclassIsTakenOut() throws Exception {
    Crafted c = new Crafted().slots(2);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(
        new ClassEntry(OldBase.class.getName(), List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(0, ch -> ch.allocLoop(ids, alloc));
    c.code(1, 1, ch -> ch.clusterInt(ids, values, BASE, "b"));
    c.code(1, 0, ch -> ch.clusterInt(ids, values, THING, "a"));
    Thing got = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(5, got.a);
  }

  @Test
  void aSetterOfTheRemovedSuperclassIsTakenOut() throws Exception {
    Crafted c = thing();
    int b = c.constant(new Constant.Setter(1, "b", "I"));
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, ch -> ch.select(0, null).setInt(b, 7).setInt(a, 9));
    Thing t = assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, t.a);
  }

  /**
   * Hostile: a cast of an object to a class that records no fields and no hook, with nothing stored
   * after it. Such a class carries no data, so it is never taken for a removed superclass (Codese's
   * own code never casts to it): the program check refuses the cast before anything is defined, so
   * the restore cannot fail with a {@code ClassCastException}.
   */
  @Test
  void hostileCastToAClassWithoutDataIsRefused() throws Exception {
    Crafted c = new Crafted();
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(new ClassEntry(OldBase.class.getName(), List.of(), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(1, 1, ch -> ch.select(0, BASE));
    c.code(1, 0, ch -> ch.select(0, THING).putInt(THING, "a", 9));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("to " + OldBase.class.getName()), e.getMessage());
  }

  /**
   * Hostile: the object selected through the cast to the removed class (null once adapted) is then
   * set through a setter of its real class: rejected, not run into a {@code NullPointerException}.
   */
  @Test
  void hostileStoreIntoTheRealClassAfterTheRemovedCastIsRejected() {
    Crafted c = thing();
    int a = c.constant(new Constant.Setter(0, "a", "I"));
    c.code(1, 1, ch -> ch.select(0, BASE).setInt(a, 9));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("a class its class no longer has"), e.getMessage());
  }

  /**
   * Hostile: a {@code putfield} into a field of the removed class that the class table does not
   * record (no data of it was captured): rejected, as any store the adaptation would not take out.
   */
  @Test
  void hostilePutfieldIntoAnUnrecordedFieldOfTheRemovedClassIsRejected() {
    Crafted c = thing();
    c.code(1, 1, ch -> ch.select(0, BASE).putInt(BASE, "unrecorded", 7));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
    assertTrue(e.getMessage().contains("no recorded field"), e.getMessage());
  }

  /**
   * The snapshot also allocates an object of the class it stores into as if removed: the class is
   * no longer detached, and the store into the other object is dropped for that object alone
   * ({@link RemovedSuperclassInGraphCodeTest} has the rest).
   */
  @Test
  void aStoreIntoTheRemovedClassIsDroppedPerObjectWhenTheClassIsAllocated() throws Exception {
    Crafted c = new Crafted().slots(2);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    int base =
        c.type(
            new ClassEntry(
                OldBase.class.getName(), List.of(new FieldEntry("b", "I", true)), 1L, true));
    int allocThing = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int allocBase = c.constant(new Constant.Allocator(base, Mode.SERIAL));
    int b = c.constant(new Constant.Setter(base, "b", "I"));
    c.code(0, ch -> ch.alloc(0, allocThing).alloc(1, allocBase));
    c.code(1, ch -> ch.select(0, null).setInt(b, 7));
    assertInstanceOf(Thing.class, Codese.fromBytes(c.bytes()));
  }

  /**
   * Hostile: the cast to the removed class used for a cluster loop whose column stores into the
   * objects' real class: rejected.
   */
  @Test
  void hostileClusterLoopWithARealColumnIsRejected() {
    Crafted c = new Crafted().slots(2);
    int t =
        c.type(
            new ClassEntry(
                Thing.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    c.type(
        new ClassEntry(OldBase.class.getName(), List.of(new FieldEntry("b", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(0, ch -> ch.allocLoop(ids, alloc));
    c.code(1, 1, ch -> ch.clusterInt(ids, values, BASE, "unrecorded"));
    assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(c.bytes()));
  }
}
