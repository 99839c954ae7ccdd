package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.objectweb.asm.Opcodes.*;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.Serializable;
import java.util.List;
import java.util.stream.IntStream;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.MethodVisitor;

/**
 * The edges of the load-time program check (issue 15, measured with PIT): what each slot holds, how
 * many stores the allocated objects take, cluster, element and finish-program stores, typed arrays,
 * and references to earlier stream segments. Each hostile snapshot is crafted as an attacker would
 * (the format's writer and ASM, checksums valid) and must be rejected at load with the slot or
 * constant named; each boundary is tried at the limit (restores) and one past it (rejected).
 */
class ProgramEdgesTest {
  /** A Serializable class with one int field. */
  static final class Box implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  /** A Serializable class with two int fields. */
  static final class Two implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    int b;
  }

  /** A Serializable class with one int field, not a {@link Box}. */
  static final class Other implements Serializable {
    private static final long serialVersionUID = 1L;
    int x;
  }

  /** Holds a {@link Box} and an {@link Other}. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Box box;
    Other other;
  }

  /** Resolves, as the JDK allows, to an object of another class. */
  static final class Resolves implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object readResolve() {
      return new Other();
    }
  }

  /** A record made by its hook in the finish phase. */
  record Point(int x) implements Serializable {}

  /** A record whose readResolve returns another record. */
  record Resolved(int x) implements Serializable {
    private Object readResolve() {
      return new Resolved(x + 1);
    }
  }

  /** An application enum, stored into the table as a constant. */
  enum Color {
    RED
  }

  private static final String BOX = "org/codese/ProgramEdgesTest$Box";
  private static final String TWO = "org/codese/ProgramEdgesTest$Two";
  private static final String HOLDER = "org/codese/ProgramEdgesTest$Holder";
  private static final String OBJECTS = "[Ljava/lang/Object;";
  private static final ClassEntry BOX_ENTRY = entry(Box.class, "value", "I");
  private static final ClassEntry TWO_ENTRY = entry(Two.class, "a", "I", "b", "I");
  private static final ClassEntry OTHER_ENTRY = entry(Other.class, "x", "I");

  /**
   * {@link Other} recording no field: a store into {@code Other.x} on an object of another class is
   * then not one of a recorded field of a class removed from that object's hierarchy, which alone
   * is dropped (as {@code ObjectInputStream} skips such a class's data); it is rejected.
   */
  private static final ClassEntry OTHER_UNRECORDED = entry(Other.class);

  private static final ClassEntry HOLDER_ENTRY =
      entry(Holder.class, "box", "L" + BOX + ";", "other", "Lorg/codese/ProgramEdgesTest$Other;");

  private static ClassEntry entry(Class<?> c, String... namesAndDescriptors) {
    List<FieldEntry> fields =
        IntStream.range(0, namesAndDescriptors.length / 2)
            .mapToObj(
                i ->
                    new FieldEntry(
                        namesAndDescriptors[2 * i], namesAndDescriptors[2 * i + 1], true))
            .toList();
    return new ClassEntry(c.getName(), fields, 1L, true);
  }

  private static String rejection(Crafted c) {
    return assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes())).getMessage();
  }

  private static int ints(Crafted c, int... values) {
    return c.constant(new Constant.PrimArray(values));
  }

  private static int alloc(Crafted c, int type) {
    return c.constant(new Constant.Allocator(type, Mode.SERIAL));
  }

  private static int program(Crafted c, int... steps) {
    return c.constant(new Constant.PrimArray(steps));
  }

  /** The element loop: {@code target[i] = table[refs[i]]} over the int[] in local 3. */
  private static void elementLoop(Crafted.Chunk ch, int refs) {
    ch.loadData(refs, "[I", 3)
        .loop(
            () -> {
              ch.mv.visitVarInsn(ALOAD, 2);
              ch.mv.visitVarInsn(ILOAD, 4);
              ch.mv.visitVarInsn(ALOAD, 0);
              ch.mv.visitVarInsn(ALOAD, 3);
              ch.mv.visitVarInsn(ILOAD, 4);
              ch.mv.visitInsn(IALOAD);
              ch.mv.visitInsn(AALOAD);
              ch.mv.visitInsn(AASTORE);
            });
  }

  /** {@code table[id] = Array.newInstance((Class) constants[maker], length)}. */
  private static void newArray(Crafted.Chunk ch, int id, int maker, int length) {
    MethodVisitor mv = ch.mv;
    mv.visitVarInsn(ALOAD, 0);
    ch.push(id);
    mv.visitVarInsn(ALOAD, 1);
    ch.push(maker);
    mv.visitInsn(AALOAD);
    mv.visitTypeInsn(CHECKCAST, "java/lang/Class");
    ch.push(length);
    mv.visitMethodInsn(
        INVOKESTATIC,
        "java/lang/reflect/Array",
        "newInstance",
        "(Ljava/lang/Class;I)Ljava/lang/Object;",
        false);
    mv.visitInsn(AASTORE);
  }

  @Nested
  class SlotsAreFilledOnce {
    @Test
    void aStringLoopFillsItsSlots() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      int ids = ints(c, 0);
      int texts = c.constant(new Constant.Texts(new String[] {"a"}));
      c.code(0, ch -> ch.stringLoop(ids, texts).alloc(0, alloc));
      assertMentions(rejection(c), "statement 1: fills table slot 0 a second time");
    }

    @Test
    void aLoopIdAtTheTableSizeIsOutsideTheTable() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      int ids = ints(c, 0, 1);
      c.code(0, ch -> ch.allocLoop(ids, alloc));
      assertMentions(rejection(c), "table slot 1 is not one of this snapshot's slots 0..0");
    }

    @Test
    void aLoopWhoseIdsAreConstantZeroJustifiesTheTable() throws IOException {
      Crafted c = new Crafted().slots(2);
      int ids = ints(c, 0, 1);
      assertEquals(0, ids);
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      c.code(0, ch -> ch.allocLoop(ids, alloc));
      assertInstanceOf(Box.class, Codese.fromBytes(c.bytes()));
    }

    /** A clone fills its slot with an array the set phase may write to. */
    @Test
    void aClonedArrayMayBeWrittenTo() throws IOException {
      Crafted c = new Crafted();
      c.type("[I");
      int array = ints(c, 1, 2, 3);
      c.code(
          0,
          ch -> {
            ch.mv.visitVarInsn(ALOAD, 0);
            ch.push(0);
            ch.mv.visitVarInsn(ALOAD, 1);
            ch.push(array);
            ch.mv.visitInsn(AALOAD);
            ch.mv.visitTypeInsn(CHECKCAST, "[I");
            ch.mv.visitMethodInsn(INVOKEVIRTUAL, "[I", "clone", "()Ljava/lang/Object;", false);
            ch.mv.visitInsn(AASTORE);
          });
      c.code(
          1,
          ch -> {
            ch.select(0, "[I");
            ch.mv.visitVarInsn(ALOAD, 2);
            ch.push(0);
            ch.push(9);
            ch.mv.visitInsn(IASTORE);
          });
      assertArrayEquals(new int[] {9, 2, 3}, (int[]) Codese.fromBytes(c.bytes()));
    }

    /** Loop ids from a constant the snapshot does not have fill nothing and are rejected. */
    @Test
    void loopIdsFromAMissingConstantAreRejected() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      c.code(0, ch -> ch.allocLoop(alloc + 1, alloc));
      assertMentions(rejection(c), "declares 1 table slots but its program can fill at most 0");
    }

    /** A class's nest cannot name a class it cannot access, and the rejection says which nest. */
    @Test
    void aCastTheNestCannotAccessIsRejected() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      c.type("java.util.ArrayList$Itr");
      int alloc = alloc(c, box);
      int value = c.constant(new Constant.Setter(box, "value", "I"));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, box, ch -> ch.select(0, "java/util/ArrayList$Itr").setInt(value, 1));
      assertMentions(
          rejection(c),
          "casts to java.util.ArrayList$Itr, which generated code in the"
              + " nest of "
              + Box.class.getName()
              + " cannot access");
    }

    /** A slot holding an enum constant is typed by it, not left empty (anything fits empty). */
    @Test
    void aStoredConstantIsTypedByItsValue() {
      Crafted c = new Crafted().slots(2);
      int holder = c.type(HOLDER_ENTRY);
      int color = c.type(Color.class.getName());
      int allocHolder = alloc(c, holder);
      int red = c.constant(new Constant.EnumRef(color, "RED"));
      int box = c.constant(new Constant.Setter(holder, "box", "L" + BOX + ";"));
      c.code(0, ch -> ch.alloc(0, allocHolder).storeConstant(1, red));
      c.code(1, ch -> ch.select(0, null).setRef(box, 1));
      assertMentions(
          rejection(c),
          "stores a "
              + Color.class.getName()
              + " (slot 1) where a "
              + Box.class.getName()
              + " belongs");
    }

    /** A slot that fitted one field's type is checked again against the next field's type. */
    @Test
    void aSlotThatFittedOneFieldIsCheckedAgainstTheNext() {
      Crafted c = new Crafted().slots(2);
      int holder = c.type(HOLDER_ENTRY);
      int box = c.type(BOX_ENTRY);
      int allocHolder = alloc(c, holder);
      int allocBox = alloc(c, box);
      int toBox = c.constant(new Constant.Setter(holder, "box", "L" + BOX + ";"));
      int toOther =
          c.constant(new Constant.Setter(holder, "other", "Lorg/codese/ProgramEdgesTest$Other;"));
      c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocBox));
      c.code(1, ch -> ch.select(0, null).setRef(toBox, 1).setRef(toOther, 1));
      assertMentions(
          rejection(c),
          "statement 2: stores a "
              + Box.class.getName()
              + " (slot 1) where a "
              + Other.class.getName()
              + " belongs");
    }
  }

  @Nested
  class StoresAreCountedAgainstTheAllocatedFields {
    /** Two boxes from a loop hold two fields: two stores restore, a third is rejected. */
    @Test
    void setterStoresIntoLoopAllocations() throws IOException {
      for (int stores = 2; stores <= 3; stores++) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int alloc = alloc(c, box);
        int ids = ints(c, 0, 1);
        int value = c.constant(new Constant.Setter(box, "value", "I"));
        boolean twice = stores == 3;
        c.code(0, ch -> ch.allocLoop(ids, alloc));
        c.code(
            1,
            ch -> {
              ch.select(0, null).setInt(value, 1);
              if (twice) {
                ch.setInt(value, 2);
              }
              ch.select(1, null).setInt(value, 3);
            });
        if (twice) {
          assertMentions(
              rejection(c),
              "makes 3 field and element stores into objects that hold" + " 2 fields and elements");
        } else {
          assertEquals(1, ((Box) Codese.fromBytes(c.bytes())).value);
        }
      }
    }

    /** One two-column cluster loop over two objects fills them; a second one is rejected. */
    @Test
    void clusterLoopsCountEveryColumn() throws IOException {
      for (int loops = 1; loops <= 2; loops++) {
        Crafted c = new Crafted().slots(2);
        int two = c.type(TWO_ENTRY);
        int alloc = alloc(c, two);
        int ids = ints(c, 0, 1);
        int as = ints(c, 1, 2);
        int bs = ints(c, 3, 4);
        int n = loops;
        c.code(0, ch -> ch.allocLoop(ids, alloc));
        c.code(
            1,
            two,
            ch -> {
              for (int i = 0; i < n; i++) {
                ch.loadData(ids, "[I", 3)
                    .loadData(as, "[I", 5)
                    .loadData(bs, "[I", 6)
                    .loop(
                        () -> {
                          MethodVisitor mv = ch.mv;
                          mv.visitVarInsn(ALOAD, 0);
                          mv.visitVarInsn(ALOAD, 3);
                          mv.visitVarInsn(ILOAD, 4);
                          mv.visitInsn(IALOAD);
                          mv.visitInsn(AALOAD);
                          mv.visitTypeInsn(CHECKCAST, TWO);
                          mv.visitVarInsn(ASTORE, 2);
                          for (String[] column : new String[][] {{"a", "5"}, {"b", "6"}}) {
                            mv.visitVarInsn(ALOAD, 2);
                            mv.visitVarInsn(ALOAD, Integer.parseInt(column[1]));
                            mv.visitVarInsn(ILOAD, 4);
                            mv.visitInsn(IALOAD);
                            mv.visitFieldInsn(PUTFIELD, TWO, column[0], "I");
                          }
                        });
              }
            });
        if (loops == 2) {
          assertMentions(
              rejection(c),
              "makes 8 field and element stores into objects that hold" + " 4 fields");
        } else {
          Two t = (Two) Codese.fromBytes(c.bytes());
          assertEquals(1, t.a);
          assertEquals(3, t.b);
        }
      }
    }

    /** Finish-program field steps count too: a holder and a box hold three fields, not four. */
    @Test
    void finishStepsAreCounted() throws IOException {
      for (int steps = 3; steps <= 4; steps++) {
        Crafted c = new Crafted().slots(2);
        int holder = c.type(HOLDER_ENTRY);
        int box = c.type(BOX_ENTRY);
        int allocHolder = alloc(c, holder);
        int allocBox = alloc(c, box);
        int field = c.constant(new Constant.Setter(holder, "box", "L" + BOX + ";"));
        int[] p = new int[4 * steps];
        for (int i = 0; i < steps; i++) {
          System.arraycopy(new int[] {Grammar.STEP_FIELD, field, 0, 1}, 0, p, 4 * i, 4);
        }
        int finish = program(c, p);
        c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocBox));
        c.code(2, ch -> ch.runSteps(finish));
        if (steps == 4) {
          assertMentions(rejection(c), "makes 4 field and element stores into objects that hold 3");
        } else {
          assertInstanceOf(Box.class, ((Holder) Codese.fromBytes(c.bytes())).box);
        }
      }
    }
  }

  @Nested
  class ClusterLoops {
    /** A cluster loop over {@code ids} with one int column into {@code Box.value}. */
    private Crafted clusterOver(int[] ids, int secondSlot) {
      Crafted c = new Crafted().slots(2);
      int box = c.type(BOX_ENTRY);
      int other = c.type(OTHER_ENTRY);
      int point = c.type(entry(Point.class, "x", "I"));
      int allocBox = alloc(c, box);
      int allocOther = alloc(c, other);
      int idsK = ints(c, ids);
      int values = ints(c, 7, 8);
      int record =
          c.constant(
              new Constant.Hook(
                  HookKind.RECORD,
                  point,
                  1,
                  new Tape(new byte[] {0, 0, 0, 1}, new int[] {Tape.FIELDS, 0})));
      int finish = program(c, Grammar.STEP_HOOK, record);
      c.code(
          0,
          ch -> {
            ch.alloc(0, allocBox);
            if (secondSlot == other) {
              ch.alloc(1, allocOther);
            }
          });
      c.code(1, box, ch -> ch.clusterInt(idsK, values, BOX, "value"));
      if (secondSlot == point) {
        c.code(2, ch -> ch.runSteps(finish));
      }
      return c;
    }

    /** Slot 1 is empty while the set phase runs (a record fills it later): not a target. */
    @Test
    void aClusterLoopNeverTargetsAnEmptySlot() {
      assertMentions(
          rejection(clusterOver(new int[] {1, 0}, 2)),
          "a cluster loop writes to slot"
              + " 1, which holds no "
              + Box.class.getName()
              + " this snapshot allocated");
    }

    /**
     * The loop's first target is of another class than the one it casts to: its row is dropped, as
     * {@code ObjectInputStream} skips the data of a class removed from an object's hierarchy (both
     * classes {@code Serializable}, the field recorded), never cast; the other row is set.
     */
    @Test
    void aClusterLoopDropsTheRowOfATargetOfAnotherClass() throws IOException {
      Crafted c = new Crafted().slots(2);
      int box = c.type(BOX_ENTRY);
      int other = c.type(OTHER_ENTRY);
      int allocBox = alloc(c, box);
      int allocOther = alloc(c, other);
      int ids = ints(c, 1, 0);
      int values = ints(c, 7, 8);
      c.code(0, ch -> ch.alloc(0, allocBox).alloc(1, allocOther));
      c.code(1, box, ch -> ch.clusterInt(ids, values, BOX, "value"));
      assertEquals(8, ((Box) Codese.fromBytes(c.bytes())).value);
    }

    /** A reflective cluster loop (no cast) over a string: no object to write to. */
    @Test
    void aReflectiveClusterLoopNeverTargetsAString() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int value = c.constant(new Constant.Setter(box, "value", "I"));
      int ids = ints(c, 0);
      int values = ints(c, 7);
      c.code(0, ch -> ch.newString(0, "not an object to write to"));
      c.code(1, ch -> reflectiveIntLoop(ch, ids, value, values));
      assertMentions(
          rejection(c),
          "a cluster loop writes to slot 0, which holds no object this" + " snapshot allocated");
    }

    @Test
    void aReflectiveColumnSetsOnlyFieldsOfItsTargetsClass() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int other = c.type(OTHER_UNRECORDED);
      int alloc = alloc(c, box);
      int x = c.constant(new Constant.Setter(other, "x", "I"));
      int ids = ints(c, 0);
      int values = ints(c, 7);
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> reflectiveIntLoop(ch, ids, x, values));
      assertMentions(rejection(c), "of an object of " + Box.class.getName());
    }

    /**
     * Slots an allocation loop filled keep their class into the set phase: a reflective column over
     * the loop's own ids still sets only fields of that class.
     */
    @Test
    void aReflectiveColumnOverAnAllocationLoopSetsOnlyFieldsOfItsClass() throws IOException {
      for (boolean hostile : new boolean[] {false, true}) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int other = c.type(OTHER_UNRECORDED);
        int alloc = alloc(c, box);
        int field =
            hostile
                ? c.constant(new Constant.Setter(other, "x", "I"))
                : c.constant(new Constant.Setter(box, "value", "I"));
        int ids = ints(c, 0, 1);
        int values = ints(c, 7, 8);
        c.code(0, ch -> ch.allocLoop(ids, alloc));
        c.code(1, ch -> reflectiveIntLoop(ch, ids, field, values));
        if (hostile) {
          assertMentions(rejection(c), "of an object of " + Box.class.getName());
        } else {
          assertEquals(7, ((Box) Codese.fromBytes(c.bytes())).value);
        }
      }
    }

    /** A cluster loop over an allocation loop's slots casts them to that loop's class only. */
    @Test
    void aClusterLoopOverAnAllocationLoopCastsToItsClassOnly() throws IOException {
      for (boolean hostile : new boolean[] {false, true}) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int other = c.type(OTHER_UNRECORDED);
        int alloc = alloc(c, box);
        int ids = ints(c, 0, 1);
        int values = ints(c, 7, 8);
        c.code(0, ch -> ch.allocLoop(ids, alloc));
        if (hostile) {
          c.code(
              1, other, ch -> ch.clusterInt(ids, values, "org/codese/ProgramEdgesTest$Other", "x"));
          assertMentions(
              rejection(c),
              "a cluster loop writes to slot 0, which holds no "
                  + Other.class.getName()
                  + " this snapshot allocated");
        } else {
          c.code(1, box, ch -> ch.clusterInt(ids, values, BOX, "value"));
          assertEquals(7, ((Box) Codese.fromBytes(c.bytes())).value);
        }
      }
    }

    /** A cluster loop's ids are this snapshot's slots: one past the last, or -1, is rejected. */
    @Test
    void aClusterLoopTargetsOnlyThisSnapshotsSlots() {
      for (int outside : new int[] {2, -1}) {
        assertMentions(
            rejection(clusterOver(new int[] {0, outside}, 1)),
            "table slot " + outside + " is not one of this snapshot's slots 0..1");
      }
    }

    private void reflectiveIntLoop(Crafted.Chunk ch, int ids, int field, int values) {
      ch.loadData(ids, "[I", 3)
          .loadData(field, org.codese.program.RuntimeContract.current().setterOwner(), 5)
          .loadData(values, "[I", 6)
          .loop(
              () -> {
                MethodVisitor mv = ch.mv;
                ch.reflectiveTarget();
                mv.visitVarInsn(ALOAD, 6);
                mv.visitVarInsn(ILOAD, 4);
                mv.visitInsn(IALOAD);
                mv.visitMethodInsn(
                    INVOKEVIRTUAL,
                    org.codese.program.RuntimeContract.current().setterOwner(),
                    "setInt",
                    "(Ljava/lang/Object;I)V",
                    false);
              });
    }

    /** A cluster loop may set one column with putfield and the next through a field constant. */
    @Test
    void aClusterLoopMayMixPutfieldAndFieldColumns() throws IOException {
      Crafted c = new Crafted().slots(2);
      int two = c.type(TWO_ENTRY);
      int alloc = alloc(c, two);
      int ids = ints(c, 0, 1);
      int as = ints(c, 1, 2);
      int bs = ints(c, 3, 4);
      int b = c.constant(new Constant.Setter(two, "b", "I"));
      c.code(0, ch -> ch.allocLoop(ids, alloc));
      c.code(
          1,
          two,
          ch ->
              ch.loadData(ids, "[I", 3)
                  .loadData(as, "[I", 5)
                  .loadData(bs, "[I", 6)
                  .loadData(b, org.codese.program.RuntimeContract.current().setterOwner(), 7)
                  .loop(
                      () -> {
                        MethodVisitor mv = ch.mv;
                        mv.visitVarInsn(ALOAD, 0);
                        mv.visitVarInsn(ALOAD, 3);
                        mv.visitVarInsn(ILOAD, 4);
                        mv.visitInsn(IALOAD);
                        mv.visitInsn(AALOAD);
                        mv.visitTypeInsn(CHECKCAST, TWO);
                        mv.visitVarInsn(ASTORE, 2);
                        mv.visitVarInsn(ALOAD, 2);
                        mv.visitVarInsn(ALOAD, 5);
                        mv.visitVarInsn(ILOAD, 4);
                        mv.visitInsn(IALOAD);
                        mv.visitFieldInsn(PUTFIELD, TWO, "a", "I");
                        mv.visitVarInsn(ALOAD, 7);
                        mv.visitVarInsn(ALOAD, 2);
                        mv.visitVarInsn(ALOAD, 6);
                        mv.visitVarInsn(ILOAD, 4);
                        mv.visitInsn(IALOAD);
                        mv.visitMethodInsn(
                            INVOKEVIRTUAL,
                            org.codese.program.RuntimeContract.current().setterOwner(),
                            "setInt",
                            "(Ljava/lang/Object;I)V",
                            false);
                      }));
      Two t = (Two) Codese.fromBytes(c.bytes());
      assertEquals(1, t.a);
      assertEquals(3, t.b);
    }

    /** A reference column's values are typed like any other store of a reference. */
    @Test
    void aReferenceColumnStoresOnlyValuesOfTheFieldsType() throws IOException {
      for (boolean hostile : new boolean[] {false, true}) {
        Crafted c = new Crafted().slots(2);
        int holder = c.type(HOLDER_ENTRY);
        int box = c.type(BOX_ENTRY);
        int other = c.type(OTHER_ENTRY);
        int allocHolder = alloc(c, holder);
        int allocValue = alloc(c, hostile ? other : box);
        int ids = ints(c, 0);
        int refs = ints(c, 1);
        c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocValue));
        c.code(
            1,
            holder,
            ch ->
                ch.loadData(ids, "[I", 3)
                    .loadData(refs, "[I", 5)
                    .loop(
                        () -> {
                          MethodVisitor mv = ch.mv;
                          mv.visitVarInsn(ALOAD, 0);
                          mv.visitVarInsn(ALOAD, 3);
                          mv.visitVarInsn(ILOAD, 4);
                          mv.visitInsn(IALOAD);
                          mv.visitInsn(AALOAD);
                          mv.visitTypeInsn(CHECKCAST, HOLDER);
                          mv.visitVarInsn(ASTORE, 2);
                          mv.visitVarInsn(ALOAD, 2);
                          mv.visitVarInsn(ALOAD, 0);
                          mv.visitVarInsn(ALOAD, 5);
                          mv.visitVarInsn(ILOAD, 4);
                          mv.visitInsn(IALOAD);
                          mv.visitInsn(AALOAD);
                          mv.visitTypeInsn(CHECKCAST, BOX);
                          mv.visitFieldInsn(PUTFIELD, HOLDER, "box", "L" + BOX + ";");
                        }));
        if (hostile) {
          assertMentions(
              rejection(c),
              "stores a "
                  + Other.class.getName()
                  + " (slot 1) where a "
                  + Box.class.getName()
                  + " belongs");
        } else {
          assertInstanceOf(Box.class, ((Holder) Codese.fromBytes(c.bytes())).box);
        }
      }
    }
  }

  @Nested
  class ArraysAndElements {
    /** An element loop as long as its array restores; one element longer is rejected. */
    @Test
    void anElementLoopStaysInsideItsArray() throws IOException {
      for (int n = 2; n <= 3; n++) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int alloc = alloc(c, box);
        int refs = ints(c, new int[n]);
        c.code(0, ch -> ch.newObjectArray(0, 2).alloc(1, alloc));
        c.code(
            1,
            ch -> {
              ch.select(0, OBJECTS);
              elementLoop(ch, refs);
            });
        if (n == 3) {
          assertMentions(rejection(c), "sets element 2 of an array of length 2");
        } else {
          Object[] a = (Object[]) Codese.fromBytes(c.bytes());
          assertEquals(2, a.length);
          assertSame(a, a[1]);
        }
      }
    }

    /** A typed array made by an array maker takes only elements of its component type. */
    @Test
    void anElementLoopIntoATypedArrayIsTyped() {
      Crafted c = new Crafted().slots(2);
      int strings = c.type(String[].class.getName());
      int box = c.type(BOX_ENTRY);
      int maker = c.constant(new Constant.ArrayMaker(strings));
      int alloc = alloc(c, box);
      int refs = ints(c, 1, 1);
      c.code(
          0,
          ch -> {
            newArray(ch, 0, maker, 2);
            ch.alloc(1, alloc);
          });
      c.code(
          1,
          ch -> {
            ch.select(0, OBJECTS);
            elementLoop(ch, refs);
          });
      assertMentions(
          rejection(c),
          "stores a " + Box.class.getName() + " (slot 1) where a java.lang.String belongs");
    }

    /** Constant index 0 is an array maker like any other (not "an Object[]"). */
    @Test
    void anArrayMakerAtConstantZeroTypesItsArray() {
      Crafted c = new Crafted().slots(2);
      int strings = c.type(String[].class.getName());
      int maker = c.constant(new Constant.ArrayMaker(strings));
      assertEquals(0, maker);
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      c.code(
          0,
          ch -> {
            newArray(ch, 0, maker, 1);
            ch.alloc(1, alloc);
          });
      c.code(1, ch -> ch.select(0, OBJECTS).putElement(0, 1));
      assertMentions(rejection(c), "where a java.lang.String belongs");
    }

    /** A class constant would make arrays of any class: only array makers make arrays. */
    @Test
    void onlyAnArrayMakerMakesArrays() {
      Crafted c = new Crafted();
      int strings = c.type(String.class.getName());
      int type = c.constant(new Constant.TypeRef(strings));
      c.code(0, ch -> newArray(ch, 0, type, 1));
      assertMentions(rejection(c), "makes an array with constant 0, which is not an array maker");
    }

    @Test
    void anArrayMakerOfAClassThatIsNoArrayIsAMismatch() {
      Crafted c = new Crafted();
      int string = c.type(String.class.getName());
      int maker = c.constant(new Constant.ArrayMaker(string));
      c.code(0, ch -> newArray(ch, 0, maker, 1));
      ClassMismatchException e =
          assertThrows(ClassMismatchException.class, () -> Codese.load(c.bytes()));
      assertMentions(e.getMessage(), "java.lang.String", "expected an array class");
    }

    /** A clone must be of an array constant of exactly the cast's type. */
    @Test
    void aCloneIsOfAnArrayConstantOfItsType() {
      for (Constant k : List.of(new Constant.PrimArray(new long[] {1}), new Constant.Text("t"))) {
        Crafted c = new Crafted();
        int array = c.constant(k);
        c.code(
            0,
            ch -> {
              MethodVisitor mv = ch.mv;
              mv.visitVarInsn(ALOAD, 0);
              ch.push(0);
              mv.visitVarInsn(ALOAD, 1);
              ch.push(array);
              mv.visitInsn(AALOAD);
              mv.visitTypeInsn(CHECKCAST, "[I");
              mv.visitMethodInsn(INVOKEVIRTUAL, "[I", "clone", "()Ljava/lang/Object;", false);
              mv.visitInsn(AASTORE);
            });
        assertMentions(rejection(c), "clones constant 0, which is not of type int[]");
      }
    }

    /** {@code bastore} stores booleans and bytes; into a char[] it is rejected. */
    @Test
    void bastoreFitsBooleanAndByteArraysOnly() throws IOException {
      for (String array : new String[] {"[Z", "[C"}) {
        Crafted c = new Crafted();
        c.type(array.equals("[Z") ? "[Z" : "[C");
        c.code(
            0,
            ch -> {
              ch.mv.visitVarInsn(ALOAD, 0);
              ch.push(0);
              ch.push(2);
              ch.mv.visitIntInsn(NEWARRAY, array.equals("[Z") ? T_BOOLEAN : T_CHAR);
              ch.mv.visitInsn(AASTORE);
            });
        c.code(
            1,
            ch -> {
              ch.select(0, array);
              ch.mv.visitVarInsn(ALOAD, 2);
              ch.push(1);
              ch.push(1);
              ch.mv.visitInsn(BASTORE);
            });
        if (array.equals("[Z")) {
          assertArrayEquals(new boolean[] {false, true}, (boolean[]) Codese.fromBytes(c.bytes()));
        } else {
          assertMentions(rejection(c), "stores a value of kind B into a char[]");
        }
      }
    }
  }

  @Nested
  class TheFinishProgram {
    private Crafted finishing(boolean boxValue, int... steps) {
      Crafted c = new Crafted().slots(3);
      int holder = c.type(HOLDER_ENTRY);
      int box = c.type(BOX_ENTRY);
      int other = c.type(OTHER_ENTRY);
      int allocHolder = alloc(c, holder);
      int allocValue = alloc(c, boxValue ? box : other);
      c.constant(new Constant.Setter(holder, "box", "L" + BOX + ";"));
      int finish = program(c, steps);
      c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocValue).newObjectArray(2, 2));
      c.code(2, ch -> ch.runSteps(finish));
      return c;
    }

    private static final int SETTER = 2;

    @Test
    void aFieldStepStoresOnlyValuesOfTheFieldsType() throws IOException {
      assertInstanceOf(
          Box.class,
          ((Holder) Codese.fromBytes(finishing(true, Grammar.STEP_FIELD, SETTER, 0, 1).bytes()))
              .box);
      assertMentions(
          rejection(finishing(false, Grammar.STEP_FIELD, SETTER, 0, 1)),
          "stores a "
              + Other.class.getName()
              + " (slot 1) where a "
              + Box.class.getName()
              + " belongs");
    }

    @Test
    void aFieldStepWritesOnlyToAnAllocatedObject() {
      assertMentions(
          rejection(finishing(true, Grammar.STEP_FIELD, SETTER, 2, 1)),
          "a finish step sets a field of slot 2, which holds no object this snapshot allocated");
    }

    @Test
    void anElementStepStaysInsideItsArray() throws IOException {
      Crafted ok = finishing(true, Grammar.STEP_ELEMENT, 2, 1, 1).root(2);
      assertInstanceOf(Box.class, ((Object[]) Codese.fromBytes(ok.bytes()))[1]);
      assertMentions(
          rejection(finishing(true, Grammar.STEP_ELEMENT, 2, 2, 1)),
          "sets element 2 of an array of length 2");
      assertMentions(
          rejection(finishing(true, Grammar.STEP_ELEMENT, 1, 0, 1)),
          "sets an element with no array selected");
    }

    /** An element step into a typed array stores only values of its component type. */
    @Test
    void anElementStepIntoATypedArrayIsTyped() throws IOException {
      for (boolean hostile : new boolean[] {false, true}) {
        Crafted c = new Crafted().slots(2);
        int boxes = c.type(Box[].class.getName());
        int box = c.type(BOX_ENTRY);
        int other = c.type(OTHER_ENTRY);
        int maker = c.constant(new Constant.ArrayMaker(boxes));
        int alloc = alloc(c, hostile ? other : box);
        int finish = program(c, Grammar.STEP_ELEMENT, 0, 0, 1);
        c.code(
            0,
            ch -> {
              newArray(ch, 0, maker, 1);
              ch.alloc(1, alloc);
            });
        c.code(2, ch -> ch.runSteps(finish));
        if (hostile) {
          assertMentions(
              rejection(c),
              "stores a "
                  + Other.class.getName()
                  + " (slot 1) where a "
                  + Box.class.getName()
                  + " belongs");
        } else {
          assertInstanceOf(Box.class, ((Box[]) Codese.fromBytes(c.bytes()))[0]);
        }
      }
    }

    /**
     * A loop's null stores let as many finish steps store again uncounted (where the object a field
     * or element refers to is made late, the loop stores null first): an array of two elements and
     * a box hold three; a loop storing two nulls, then three element steps restore; a fourth step
     * is one store too many.
     */
    @Test
    void finishStepsStoreOnceMoreWhatALoopStoredNullInto() throws IOException {
      for (int steps = 2; steps <= 4; steps++) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int alloc = alloc(c, box);
        int nulls = ints(c, 2, 2); // the null slot: one past the table's last
        int[] p = new int[4 * steps];
        for (int i = 0; i < steps; i++) {
          System.arraycopy(new int[] {Grammar.STEP_ELEMENT, 0, i % 2, 1}, 0, p, 4 * i, 4);
        }
        int finish = program(c, p);
        c.code(0, ch -> ch.newObjectArray(0, 2).alloc(1, alloc));
        c.code(1, ch -> ch.select(0, "[Ljava/lang/Object;").elementLoop(nulls));
        c.code(2, ch -> ch.runSteps(finish));
        if (steps == 4) {
          assertMentions(rejection(c), "makes 4 field and element stores into objects that hold 3");
        } else {
          Object[] a = (Object[]) Codese.fromBytes(c.bytes());
          assertInstanceOf(Box.class, a[0]);
          assertInstanceOf(Box.class, a[1]);
        }
      }
    }

    /** Element steps count against the array's length like element stores. */
    @Test
    void elementStepsAreCounted() throws IOException {
      for (int steps = 3; steps <= 4; steps++) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int alloc = alloc(c, box);
        int[] p = new int[4 * steps];
        for (int i = 0; i < steps; i++) {
          System.arraycopy(new int[] {Grammar.STEP_ELEMENT, 0, i % 2, 1}, 0, p, 4 * i, 4);
        }
        int finish = program(c, p);
        c.code(0, ch -> ch.newObjectArray(0, 2).alloc(1, alloc));
        c.code(2, ch -> ch.runSteps(finish));
        if (steps == 4) {
          assertMentions(rejection(c), "makes 4 field and element stores into objects that hold 3");
        } else {
          assertInstanceOf(Box.class, ((Object[]) Codese.fromBytes(c.bytes()))[1]);
        }
      }
    }

    /** A record component the data leaves out is zero (or null), as with a JDK stream. */
    @Test
    void aRecordComponentLeftOutIsZero() throws IOException {
      Crafted c = new Crafted();
      int point = c.type(Point.class.getName());
      int make =
          c.constant(
              new Constant.Hook(
                  HookKind.RECORD, point, 0, new Tape(new byte[0], new int[] {Tape.FIELDS, 0})));
      int finish = program(c, Grammar.STEP_HOOK, make);
      c.code(2, ch -> ch.runSteps(finish));
      assertEquals(new Point(0), Codese.fromBytes(c.bytes()));
    }

    /** The JDK calls a record's readResolve; so may a snapshot, after the record hook. */
    @Test
    void aRecordMayBeResolved() throws IOException {
      Codese.load(resolvedRecord()).close();
    }

    /**
     * It restores: the canonical constructor and {@code readResolve} are cached apart (they once
     * shared one slot per class, and the resolve hook called the constructor).
     */
    @Test
    void aRecordResolvedByItsReadResolveRestores() throws IOException {
      assertEquals(new Resolved(2), Codese.fromBytes(resolvedRecord()));
      assertEquals(new Resolved(2), Codese.fromBytes(Codese.toBytes(new Resolved(1))));
    }

    private byte[] resolvedRecord() {
      Crafted c = new Crafted();
      int type =
          c.type(
              new ClassEntry(
                  Resolved.class.getName(), List.of(new FieldEntry("x", "I", true)), 0, false));
      int make =
          c.constant(
              new Constant.Hook(
                  HookKind.RECORD,
                  type,
                  0,
                  new Tape(new byte[] {0, 0, 0, 1}, new int[] {Tape.FIELDS, 0})));
      int resolve = c.constant(new Constant.Hook(HookKind.RESOLVE, type, 0, null));
      int finish = program(c, Grammar.STEP_HOOK, make, Grammar.STEP_HOOK, resolve);
      c.code(2, ch -> ch.runSteps(finish));
      return c.bytes();
    }

    @Test
    void readResolveRunsOnlyOnWhatTheSnapshotMade() {
      Crafted c = new Crafted();
      int resolves = c.type(Resolves.class.getName());
      int hook = c.constant(new Constant.Hook(HookKind.RESOLVE, resolves, 0, null));
      int finish = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.newString(0, "not a Resolves"));
      c.code(2, ch -> ch.runSteps(finish));
      assertMentions(rejection(c), "resolves slot 0, which holds no " + Resolves.class.getName());
    }

    /**
     * The one check left to run time: a {@code readResolve} result stored into a field must fit it,
     * as with {@code ObjectInputStream}; one that fits is stored.
     */
    @Test
    void aReadResolveResultIsCheckedWhenItIsStored() throws IOException {
      for (String field : new String[] {"other", "box"}) {
        Crafted c = new Crafted().slots(2);
        int holder = c.type(HOLDER_ENTRY);
        int resolves = c.type(Resolves.class.getName());
        int allocHolder = alloc(c, holder);
        int allocResolves = alloc(c, resolves);
        int setter =
            c.constant(
                new Constant.Setter(
                    holder,
                    field,
                    field.equals("box") ? "L" + BOX + ";" : "Lorg/codese/ProgramEdgesTest$Other;"));
        int hook = c.constant(new Constant.Hook(HookKind.RESOLVE, resolves, 1, null));
        int finish = program(c, Grammar.STEP_HOOK, hook, Grammar.STEP_FIELD, setter, 0, 1);
        c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocResolves));
        c.code(2, ch -> ch.runSteps(finish));
        try (Snapshot s = Codese.load(c.bytes())) {
          if (field.equals("other")) {
            assertInstanceOf(Other.class, ((Holder) s.restore()).other);
          } else {
            Throwable t = assertThrows(IOException.class, s::restore);
            while (t != null && !(t instanceof ClassCastException)) {
              t = t.getCause();
            }
            assertInstanceOf(ClassCastException.class, t);
            assertMentions(t.getMessage(), Other.class.getName(), "box");
          }
        }
      }
    }
  }

  @Nested
  class LaterStreamSegments {
    private static final int N = 20;

    /** A first segment of {@link #N} objects: boxes, or a last one of another class. */
    private byte[] firstSegment(boolean lastIsOther) {
      Crafted c = new Crafted().slots(N);
      int box = c.type(BOX_ENTRY);
      int other = c.type(OTHER_ENTRY);
      int allocBox = alloc(c, box);
      int allocOther = alloc(c, other);
      int ids = ints(c, IntStream.range(0, lastIsOther ? N - 1 : N).toArray());
      c.code(
          0,
          ch -> {
            ch.allocLoop(ids, allocBox);
            if (lastIsOther) {
              ch.alloc(N - 1, allocOther);
            }
          });
      return c.bytes();
    }

    /** A second segment: a Box[] holding the first segment's objects. */
    private byte[] secondSegment() {
      Crafted c = new Crafted().first(N).slots(N + 1).root(N);
      int boxes = c.type(Box[].class.getName());
      int maker = c.constant(new Constant.ArrayMaker(boxes));
      int refs = ints(c, IntStream.range(0, N).toArray());
      c.code(0, ch -> newArray(ch, N, maker, N));
      c.code(
          1,
          ch -> {
            ch.select(N, OBJECTS);
            elementLoop(ch, refs);
          });
      return c.bytes();
    }

    @Test
    void earlierObjectsAreCheckedAgainstTheTypesTheyAreStoredAs() throws Exception {
      byte[] ok = SnapshotEdit.stream(firstSegment(false), secondSegment());
      try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(ok))) {
        Box first = (Box) in.readObject();
        Box[] all = (Box[]) in.readObject();
        assertSame(first, all[0]);
        assertEquals(N, all.length);
      }
      byte[] hostile = SnapshotEdit.stream(firstSegment(true), secondSegment());
      try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(hostile))) {
        assertInstanceOf(Box.class, in.readObject());
        InvalidObjectException e = assertThrows(InvalidObjectException.class, in::readObject);
        assertMentions(
            e.getMessage(),
            "rejected before it ran",
            "object "
                + (N - 1)
                + " of an earlier segment, a "
                + Other.class.getName()
                + ", where a "
                + Box.class.getName()
                + " belongs");
      }
    }

    private byte[] oneBox() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int alloc = alloc(c, box);
      c.code(0, ch -> ch.alloc(0, alloc));
      return c.bytes();
    }

    private Object read(byte[] stream, CodeseOptions options) throws Exception {
      try (CodeseInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(stream), options)) {
        return in.readObject();
      }
    }

    /** Segment lengths and first ids are checked before a segment is parsed or loaded. */
    @Test
    void aDamagedSegmentFrameIsRejectedWhereItIs() throws Exception {
      byte[] segment = oneBox();
      byte[] stream = SnapshotEdit.stream(segment);
      assertInstanceOf(Box.class, read(stream, CodeseOptions.defaults()));

      // version 1 streams, still read, have no data frames: a negative length is damage
      byte[] negative = stream.clone();
      java.nio.ByteBuffer.wrap(negative).putShort(4, (short) 1).putInt(6, -1);
      CorruptSnapshotException e =
          assertThrows(
              CorruptSnapshotException.class, () -> read(negative, CodeseOptions.defaults()));
      assertMentions(e.getMessage(), "negative segment length -1", "byte offset 6");

      byte[] truncated = java.util.Arrays.copyOf(stream, 10 + segment.length - 1);
      e =
          assertThrows(
              CorruptSnapshotException.class, () -> read(truncated, CodeseOptions.defaults()));
      assertMentions(
          e.getMessage(),
          "segment of "
              + segment.length
              + " bytes is truncated after "
              + (segment.length - 1)
              + " bytes",
          "byte offset 10");

      CodeseOptions small =
          CodeseOptions.defaults()
              .withLimits(CodeseLimits.defaults().withMaxBytes(segment.length - 1));
      InvalidObjectException over =
          assertThrows(InvalidObjectException.class, () -> read(stream, small));
      assertMentions(
          over.getMessage(),
          "stream segment of "
              + segment.length
              + " bytes at byte"
              + " 10 is over the limit of "
              + (segment.length - 1));
      assertInstanceOf(
          Box.class,
          read(
              stream,
              CodeseOptions.defaults()
                  .withLimits(CodeseLimits.defaults().withMaxBytes(segment.length))));

      byte[] damaged = stream.clone();
      damaged[10] ^= 1;
      e =
          assertThrows(
              CorruptSnapshotException.class, () -> read(damaged, CodeseOptions.defaults()));
      assertMentions(e.getMessage(), "section stream segment at byte 10: ");

      byte[] misplaced = SnapshotEdit.stream(segment, segment);
      try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(misplaced))) {
        assertInstanceOf(Box.class, in.readObject());
        e = assertThrows(CorruptSnapshotException.class, in::readObject);
        assertMentions(
            e.getMessage(),
            "segment starts at object 0 but 1 objects were read before" + " it",
            "byte offset " + (10 + segment.length + 4));
      }
    }

    /** A first stream segment that allocates one box in slot 0. */
    private Crafted firstSegmentOfOneBox() {
      Crafted first = new Crafted();
      int box = first.type(BOX_ENTRY);
      int alloc = alloc(first, box);
      first.code(0, ch -> ch.alloc(0, alloc));
      return first;
    }

    /** A later segment's cluster loop targets its own slots, which start at its first id. */
    @Test
    void aLaterSegmentsClusterLoopTargetsItsOwnSlots() throws Exception {
      Crafted first = firstSegmentOfOneBox();
      Crafted second = new Crafted().first(1).slots(3).root(2);
      int box = second.type(BOX_ENTRY);
      int alloc = alloc(second, box);
      int ids = ints(second, 1, 2);
      int values = ints(second, 5, 6);
      second.code(0, ch -> ch.alloc(1, alloc).alloc(2, alloc));
      second.code(1, box, ch -> ch.clusterInt(ids, values, BOX, "value"));
      byte[] stream = SnapshotEdit.stream(first.bytes(), second.bytes());
      try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
        assertEquals(0, ((Box) in.readObject()).value);
        assertEquals(6, ((Box) in.readObject()).value);
      }
    }

    /** A later segment's own slots start at its first id, in loops as in single stores. */
    @Test
    void aLaterSegmentsLoopFillsItsOwnSlots() throws Exception {
      Crafted first = firstSegmentOfOneBox();
      Crafted second = new Crafted().first(1).slots(4).root(1);
      int box = second.type(BOX_ENTRY);
      int alloc = alloc(second, box);
      int ids = ints(second, 1, 2, 3);
      int value = second.constant(new Constant.Setter(box, "value", "I"));
      second.code(0, ch -> ch.allocLoop(ids, alloc));
      second.code(1, ch -> ch.select(1, null).setInt(value, 5).select(3, null).setInt(value, 6));
      byte[] stream = SnapshotEdit.stream(first.bytes(), second.bytes());
      try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
        assertEquals(0, ((Box) in.readObject()).value);
        assertEquals(5, ((Box) in.readObject()).value);
      }
    }
  }
}
