package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;

/**
 * The code's stores into fields removed since capture, on every path that stores: {@code putfield}
 * in the class's nest (as for classes of Codese's own loader, which {@link CompatibleChangesTest}'s
 * per-version loaders never are), a cluster loop's {@code putfield} column, and a {@code Field}
 * setter. The class entry records a field the live class no longer has as a serializable field; the
 * snapshot restores, the store skipped. A {@code putfield} into a field that does not exist would
 * fail with {@code NoSuchFieldError} when it runs: restoring shows it was taken out.
 */
class RemovedFieldCodeTest {
  /** The live class: {@code gone} was a field at capture, {@code hidden} was not transient. */
  static final class Now implements Serializable {
    private static final long serialVersionUID = 1L;
    int kept;
    transient int hidden;
  }

  private static final String OWNER = Now.class.getName().replace('.', '/');

  private static final List<FieldEntry> CAPTURED =
      List.of(
          new FieldEntry("gone", "I", true),
          new FieldEntry("hidden", "I", true),
          new FieldEntry("kept", "I", true));

  private static Crafted allocated(boolean declaredSuid) {
    Crafted crafted = new Crafted();
    int t = crafted.type(new ClassEntry(Now.class.getName(), CAPTURED, 1L, declaredSuid));
    int alloc = crafted.constant(new Constant.Allocator(t, Mode.SERIAL));
    crafted.code(0, ch -> ch.alloc(0, alloc));
    return crafted;
  }

  @Test
  void putfieldsIntoRemovedFieldsAreTakenOut() throws Exception {
    Crafted c = allocated(true);
    c.code(
        1,
        0,
        ch ->
            ch.select(0, OWNER)
                .putInt(OWNER, "gone", 7)
                .putInt(OWNER, "hidden", 8)
                .putInt(OWNER, "kept", 9));
    Now now = assertInstanceOf(Now.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, now.kept);
    assertEquals(0, now.hidden, "a field transient now is not written, as by the JDK");
  }

  @Test
  void clusterLoopColumnsOfRemovedFieldsAreTakenOut() throws Exception {
    Crafted c = new Crafted().slots(2);
    int t = c.type(new ClassEntry(Now.class.getName(), CAPTURED, 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {5, 6}));
    c.code(0, ch -> ch.allocLoop(ids, alloc));
    c.code(
        1,
        0,
        ch ->
            ch.clusterInt(ids, values, OWNER, "gone")
                .clusterInt(ids, values, OWNER, "kept")
                .clusterInt(ids, values, OWNER, "hidden"));
    Now now = assertInstanceOf(Now.class, Codese.fromBytes(c.bytes()));
    assertEquals(5, now.kept);
    assertEquals(0, now.hidden);
  }

  @Test
  void settersOfRemovedFieldsAreTakenOut() throws Exception {
    Crafted c = allocated(true);
    int gone = c.constant(new Constant.Setter(0, "gone", "I"));
    int kept = c.constant(new Constant.Setter(0, "kept", "I"));
    c.code(1, ch -> ch.select(0, null).setInt(gone, 7).setInt(kept, 9));
    Now now = assertInstanceOf(Now.class, Codese.fromBytes(c.bytes()));
    assertEquals(9, now.kept);
  }

  /**
   * Without a declared {@code serialVersionUID} the JDK computes one from the class's shape, which
   * the removal changed, and rejects the data: so does Codese.
   */
  @Test
  void aRemovedFieldOfAClassWithoutDeclaredSerialVersionUidIsRefused() {
    Crafted c = allocated(false);
    c.code(1, 0, ch -> ch.select(0, OWNER).putInt(OWNER, "kept", 9));
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(c.bytes()));
    assertEquals("gone", e.fieldName());
  }
}
