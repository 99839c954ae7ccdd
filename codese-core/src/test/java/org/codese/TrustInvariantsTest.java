package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/**
 * Issue 15's invariants I1 (only what the restore creates is written), I4 (the limits bound the
 * work) and I5 (a hostile file gets a clean, early, typed rejection), each tried with a snapshot
 * crafted as an attacker would (the format's own writer and ASM, checksums valid). Every test
 * asserts the typed rejection at {@code Codese.load}, before any of the snapshot's code ran, and,
 * where the attack aims at one, that the JVM-global value it targets is unchanged.
 */
class TrustInvariantsTest {
  /** An application enum with a final and a mutable field: the targets of the enum attacks. */
  enum Color {
    RED(1);

    private final int code;
    int other = 7;

    Color(int code) {
      this.code = code;
    }
  }

  /** A JVM-global object that a crafted {@code readResolve} result exposes. */
  static final class Global implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Global GLOBAL = new Global();
    int x = 5;
  }

  /** Resolves, as the JDK allows, to the JVM-global {@link Global#GLOBAL}. */
  static final class ResolvesToGlobal implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object readResolve() {
      return Global.GLOBAL;
    }
  }

  /** A plain Serializable class with one field. */
  static final class Box implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  private static final String COLOR = "org/codese/TrustInvariantsTest$Color";
  private static final ClassEntry BOX_ENTRY =
      new ClassEntry(Box.class.getName(), List.of(new FieldEntry("value", "I", true)), 1L, true);

  /** A hook tape that default-reads one field record: primitive bytes and no references. */
  private static Tape fields(byte... data) {
    return new Tape(data, new int[] {Tape.FIELDS, 0});
  }

  private static int program(Crafted c, int... steps) {
    return c.constant(new Constant.PrimArray(steps));
  }

  /**
   * A finish program with one SLOT hook that default-reads 1337 into {@code Integer.value} of table
   * slot 0; returns the program's constant.
   */
  private static int integerValueHook(Crafted c) {
    int integer =
        c.type(
            new ClassEntry(
                "java.lang.Integer", List.of(new FieldEntry("value", "I", true)), 0, false));
    int hook =
        c.constant(
            new Constant.Hook(
                HookKind.SLOT, integer, 0, fields((byte) 0, (byte) 0, (byte) 5, (byte) 57)));
    return program(c, Grammar.STEP_HOOK, hook);
  }

  private static UnsafeSnapshotException rejected(Crafted c) {
    return assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes()));
  }

  @Nested
  class OnlyWhatTheRestoreCreatesIsWritten {
    @Test
    void cachedBooleanIsNeverAHookTarget() {
      Crafted c = new Crafted();
      int bool =
          c.type(
              new ClassEntry(
                  "java.lang.Boolean", List.of(new FieldEntry("value", "Z", true)), 0, false));
      int hook = c.constant(new Constant.Hook(HookKind.SLOT, bool, 0, fields((byte) 0)));
      int steps = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.storeCachedBox(0, "java/lang/Boolean", 'Z', 1));
      c.code(2, ch -> ch.runSteps(steps));
      assertTrue(rejected(c).getMessage().contains("slot 0"));
      assertTrue(Boolean.TRUE.booleanValue());
    }

    @Test
    void cachedIntegerIsNeverAHookTarget() {
      Crafted c = new Crafted();
      int steps = integerValueHook(c);
      c.code(0, ch -> ch.storeCachedBox(0, "java/lang/Integer", 'I', 7));
      c.code(2, ch -> ch.runSteps(steps));
      rejected(c);
      assertEquals(7, Integer.valueOf(7).intValue());
    }

    @Test
    void cachedBoxesOfALoopAreNeverHookTargets() {
      Crafted c = new Crafted();
      int steps = integerValueHook(c);
      int ids = c.constant(new Constant.PrimArray(new int[] {0}));
      int values = c.constant(new Constant.PrimArray(new int[] {9}));
      c.code(
          0, ch -> ch.boxLoop(ids, values, "[I", Opcodes.IALOAD, "java/lang/Integer", 'I', true));
      c.code(2, ch -> ch.runSteps(steps));
      assertTrue(rejected(c).getMessage().contains("slot 0"));
      assertEquals(9, Integer.valueOf(9).intValue());
    }

    @Test
    void enumConstantIsNeverAFieldTarget() {
      Crafted c = new Crafted();
      int color = c.type(Color.class.getName());
      int red = c.constant(new Constant.EnumRef(color, "RED"));
      int code = c.constant(new Constant.Setter(color, "code", "I"));
      c.code(0, ch -> ch.storeConstant(0, red));
      c.code(1, ch -> ch.select(0, COLOR).setInt(code, 99));
      // the default surface (I3) rejects setting an enum's fields before the program check (I1)
      assertThrows(IOException.class, () -> Codese.load(c.bytes()));
      assertEquals(1, Color.RED.code);
    }

    @Test
    void enumConstantIsNeverAPutfieldTarget() {
      Crafted c = new Crafted();
      int color = c.type(Color.class.getName());
      int red = c.constant(new Constant.EnumRef(color, "RED"));
      c.code(0, ch -> ch.storeConstant(0, red));
      c.code(1, color, ch -> ch.select(0, COLOR).putInt(COLOR, "other", 99));
      // the default surface (I3) rejects joining an enum's nest before the program check (I1)
      assertThrows(IOException.class, () -> Codese.load(c.bytes()));
      assertEquals(7, Color.RED.other);
    }

    @Test
    void jdkEnumConstantIsNeverAHookTarget() {
      Crafted c = new Crafted();
      int unit =
          c.type(
              new ClassEntry(
                  TimeUnit.class.getName(), List.of(new FieldEntry("scale", "J", true)), 0, false));
      int seconds = c.constant(new Constant.EnumRef(unit, "SECONDS"));
      int hook =
          c.constant(
              new Constant.Hook(
                  HookKind.SLOT, unit, 0, fields(new byte[] {0, 0, 0, 0, 0, 0, 0, 1})));
      int steps = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.storeConstant(0, seconds));
      c.code(2, ch -> ch.runSteps(steps));
      assertThrows(IOException.class, () -> Codese.load(c.bytes()));
      assertEquals(1_000_000_000L, TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void streamClassDescriptorIsNeverAHookTarget() {
      Crafted c = new Crafted();
      int list = c.type(java.util.ArrayList.class.getName());
      int osc = c.type(new ClassEntry(ObjectStreamClass.class.getName(), List.of(), 0, false));
      int descriptor = c.constant(new Constant.StreamClassRef(list));
      int hook = c.constant(new Constant.Hook(HookKind.SLOT, osc, 0, fields()));
      int steps = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.storeConstant(0, descriptor));
      c.code(2, ch -> ch.runSteps(steps));
      assertThrows(IOException.class, () -> Codese.load(c.bytes()));
      assertEquals(1, ObjectStreamClass.lookup(java.util.ArrayList.class).getFields().length);
    }

    @Test
    void internedLiteralIsNeverStoredAsItIs() {
      Crafted c = new Crafted();
      c.code(
          0,
          ch -> {
            ch.mv.visitVarInsn(Opcodes.ALOAD, 0);
            ch.push(0);
            ch.mv.visitLdcInsn("codese-interned-canary");
            ch.mv.visitInsn(Opcodes.AASTORE);
          });
      assertTrue(rejected(c).getMessage().contains("not a statement of the restore grammar"));
    }

    @Test
    void textConstantIsNeverStoredAsItIs() {
      Crafted c = new Crafted();
      int text = c.constant(new Constant.Text("codese-interned-canary"));
      c.code(0, ch -> ch.storeConstant(0, text));
      assertTrue(rejected(c).getMessage().contains("only enum constants"));
    }

    @Test
    void readResolveResultIsNeverWritten() throws IOException {
      Crafted c = new Crafted();
      int resolves = c.type(ResolvesToGlobal.class.getName());
      int global =
          c.type(
              new ClassEntry(
                  Global.class.getName(), List.of(new FieldEntry("x", "I", true)), 1L, true));
      int alloc = c.constant(new Constant.Allocator(resolves, Mode.SERIAL));
      int resolve = c.constant(new Constant.Hook(HookKind.RESOLVE, resolves, 0, null));
      int write =
          c.constant(
              new Constant.Hook(
                  HookKind.SLOT, global, 0, fields((byte) 0, (byte) 0, (byte) 0, (byte) 42)));
      int steps = program(c, Grammar.STEP_HOOK, resolve, Grammar.STEP_HOOK, write);
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(2, ch -> ch.runSteps(steps));
      assertTrue(rejected(c).getMessage().contains("SLOT hook"));
      assertEquals(5, Global.GLOBAL.x);
    }

    @Test
    void theSameCraftWithoutTheAttackRestores() throws IOException {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      int value = c.constant(new Constant.Setter(box, "value", "I"));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> ch.select(0, null).setInt(value, 42));
      assertEquals(42, ((Box) Codese.fromBytes(c.bytes())).value);
    }

    @Test
    void aCastTheGeneratedClassCannotAccessIsRejected() {
      Crafted c = new Crafted();
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> ch.select(0, "org/codese/TrustInvariantsTest$Box"));
      assertTrue(rejected(c).getMessage().contains("cannot access"));
    }
  }

  @Nested
  class TheLimitsBoundTheWork {
    @Test
    void anArrayAllocatedInALoopBodyIsRejected() {
      Crafted c = new Crafted().slots(2);
      int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
      c.code(
          0,
          ch ->
              ch.loadData(ids, "[I", 3)
                  .loop(
                      () -> {
                        ch.mv.visitVarInsn(Opcodes.ALOAD, 0);
                        ch.mv.visitVarInsn(Opcodes.ALOAD, 3);
                        ch.mv.visitVarInsn(Opcodes.ILOAD, 4);
                        ch.mv.visitInsn(Opcodes.IALOAD);
                        ch.push(16 << 20);
                        ch.mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_BYTE);
                        ch.mv.visitInsn(Opcodes.AASTORE);
                      }));
      rejected(c);
    }

    @Test
    void aLoopBoundedByAnArrayItCreatedIsRejected() {
      Crafted c = new Crafted();
      c.code(
          0,
          ch -> {
            ch.push(1_000_000);
            ch.mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
            ch.mv.visitVarInsn(Opcodes.ASTORE, 3);
            ch.loop(() -> ch.newObjectArray(0, 1 << 20));
          });
      rejected(c);
    }

    @Test
    void aLoopThatAllocatesIntoOneSlotManyTimesIsRejected() {
      Crafted c = new Crafted().slots(2);
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      int ids = c.constant(new Constant.PrimArray(new int[10_000]));
      c.code(0, ch -> ch.allocLoop(ids, alloc));
      assertTrue(rejected(c).getMessage().contains("a second time"));
    }

    @Test
    void aTableLargerThanTheProgramFillsIsRejected() {
      Crafted c = new Crafted().slots(150);
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      c.code(0, ch -> ch.alloc(0, alloc));
      assertTrue(rejected(c).getMessage().contains("fill at most 1"));
    }

    @Test
    void loopsThatRewriteTheSameElementsAreRejected() {
      Crafted c = new Crafted();
      int refs = c.constant(new Constant.PrimArray(new int[1000]));
      c.code(0, ch -> ch.newObjectArray(0, 1000));
      c.code(
          1,
          ch -> {
            for (int i = 0; i < 3; i++) {
              ch.select(0, "[Ljava/lang/Object;")
                  .loadData(refs, "[I", 3)
                  .loop(
                      () -> {
                        ch.mv.visitVarInsn(Opcodes.ALOAD, 2);
                        ch.mv.visitVarInsn(Opcodes.ILOAD, 4);
                        ch.mv.visitVarInsn(Opcodes.ALOAD, 0);
                        ch.mv.visitVarInsn(Opcodes.ALOAD, 3);
                        ch.mv.visitVarInsn(Opcodes.ILOAD, 4);
                        ch.mv.visitInsn(Opcodes.IALOAD);
                        ch.mv.visitInsn(Opcodes.AALOAD);
                        ch.mv.visitInsn(Opcodes.AASTORE);
                      });
            }
          });
      assertTrue(rejected(c).getMessage().contains("at most once"));
    }

    @Test
    void aHookRunTwiceIsRejected() {
      Crafted c = new Crafted();
      int box =
          c.type(
              new ClassEntry(
                  Box.class.getName(), List.of(new FieldEntry("value", "I", true)), 1L, true));
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      int hook =
          c.constant(
              new Constant.Hook(
                  HookKind.SLOT, box, 0, fields((byte) 0, (byte) 0, (byte) 0, (byte) 1)));
      int steps = program(c, Grammar.STEP_HOOK, hook, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(2, ch -> ch.runSteps(steps));
      assertTrue(rejected(c).getMessage().contains("a second time"));
    }

    @Test
    void aFloodOfGeneratedClassesIsRejected() {
      Crafted c = new Crafted().slots(200);
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      for (int i = 0; i < 200; i++) {
        int id = i;
        c.code(0, ch -> ch.alloc(id, alloc));
      }
      assertTrue(rejected(c).getMessage().contains("200 generated classes"));
    }
  }

  @Nested
  class HostileFilesGetCleanEarlyTypedRejections {
    /**
     * {@code Character.valueOf} through an interface-method reference (one flipped tag byte in the
     * constant pool; structure-fuzzer finding {@code i5-interface-methodref}): the JVM would fail
     * it with {@code IncompatibleClassChangeError} at restore, the grammar check rejects it.
     */
    @Test
    void aMethodReferenceOfTheWrongKindIsRejected() throws IOException {
      Crafted c = new Crafted();
      c.code(
          0,
          ch -> {
            ch.mv.visitVarInsn(Opcodes.ALOAD, 0);
            ch.push(0).push(7);
            ch.mv.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                "java/lang/Character",
                "valueOf",
                "(C)Ljava/lang/Character;",
                true);
            ch.mv.visitInsn(Opcodes.AASTORE);
          });
      assertTrue(
          rejected(c).getMessage().contains("not a class method reference"),
          rejected(c).getMessage());
      Crafted control = new Crafted();
      control.code(0, ch -> ch.storeCachedBox(0, "java/lang/Character", 'C', 7));
      assertEquals(Character.valueOf((char) 7), Codese.fromBytes(control.bytes()));
    }

    @Test
    void hugeStackAndLocalsAreRejected() {
      Crafted c = new Crafted();
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      c.code(0, -1, ch -> ch.alloc(0, alloc), 65535, 65535);
      assertTrue(rejected(c).getMessage().contains("stack slots"));
    }

    @Test
    void nonInstantiableAllocatorsAreRejected() {
      for (String name : List.of("[I", "int", "void", "java.util.List", "java.util.AbstractList")) {
        Crafted c = new Crafted();
        int t = c.type(name);
        int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
        c.code(0, ch -> ch.alloc(0, alloc));
        assertThrows(ClassMismatchException.class, () -> Codese.load(c.bytes()), name);
      }
    }

    @Test
    void aHookOnAStringIsRejected() {
      Crafted c = new Crafted();
      int string = c.type(new ClassEntry("java.lang.String", List.of(), 0, false));
      int hook = c.constant(new Constant.Hook(HookKind.SLOT, string, 0, fields()));
      int steps = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.newString(0, "x"));
      c.code(2, ch -> ch.runSteps(steps));
      assertThrows(IOException.class, () -> Codese.load(c.bytes()));
    }

    @Test
    void aCastToAClassTheTableDoesNotNameIsRejected() {
      Crafted c = new Crafted();
      int box = c.type(Box.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> ch.select(0, "java/lang/Runnable"));
      assertTrue(rejected(c).getMessage().contains("does not name"));
    }

    /**
     * The class table resolves names through the snapshot's loader, the JVM a cast through the
     * loader of the generated class: a name they resolve differently is rejected at load, not a
     * NoClassDefFoundError or ClassCastException at restore (structure-fuzzer finding
     * i5-noclassdef-host-loader).
     */
    @Test
    void aCastTheGeneratedClassesLoaderResolvesElsewhereIsRejected() throws IOException {
      java.net.URL jar =
          LoopShapesTest.Far.class.getProtectionDomain().getCodeSource().getLocation();
      try (java.net.URLClassLoader other =
          new java.net.URLClassLoader(new java.net.URL[] {jar}, null)) {
        Crafted c = new Crafted();
        int far = c.type(LoopShapesTest.Far.class.getName());
        int alloc = c.constant(new Constant.Allocator(far, Mode.BARE));
        c.code(0, ch -> ch.alloc(0, alloc));
        c.code(1, ch -> ch.select(0, "org/codese/LoopShapesTest$Far"));
        CodeseOptions options =
            CodeseOptions.defaults()
                .withClassLoader(other)
                .withAllowedClasses(LoopShapesTest.Far.class.getName());
        UnsafeSnapshotException e =
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes(), options));
        assertTrue(
            e.getMessage().contains("resolves to another class or not at all"), e.getMessage());
      }
    }

    /**
     * As above, for a class the generated class's loader does not find at all: defined only by the
     * snapshot's loader. Rejected at load, not a NoClassDefFoundError at restore.
     */
    @Test
    void aCastTheGeneratedClassesLoaderCannotFindIsRejected() throws Exception {
      String name = "org.codese.elsewhere.Only";
      org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(0);
      cw.visit(
          Opcodes.V17,
          Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER,
          name.replace('.', '/'),
          null,
          "java/lang/Object",
          null);
      org.codese.testkit.ClassFiles.defaultConstructor(cw);
      cw.visitEnd();
      ClassLoader only =
          org.codese.testkit.ClassFiles.definingOnly(
              TrustInvariantsTest.class.getClassLoader(), name, cw.toByteArray());
      assertThrows(
          ClassNotFoundException.class,
          () -> Class.forName(name, false, TrustInvariantsTest.class.getClassLoader()));
      Crafted c = new Crafted();
      int t = c.type(name);
      int alloc = c.constant(new Constant.Allocator(t, Mode.BARE));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> ch.select(0, name.replace('.', '/')));
      CodeseOptions options =
          CodeseOptions.defaults().withClassLoader(only).withAllowedClasses(name);
      UnsafeSnapshotException e =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes(), options));
      assertTrue(
          e.getMessage()
              .contains(
                  "casts to "
                      + name
                      + ", which the class loader of"
                      + " generated code in Codese's package resolves to another class or not at all"),
          e.getMessage());
    }

    @Test
    void aCastThatWouldFailIsRejected() {
      Crafted c = new Crafted();
      int box = c.type(Box.class.getName());
      c.type(java.util.HashMap.class.getName());
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      c.code(0, ch -> ch.alloc(0, alloc));
      c.code(1, ch -> ch.select(0, "java/util/HashMap"));
      assertTrue(rejected(c).getMessage().contains("casts slot 0"));
    }

    @Test
    void anElementOutsideItsArrayIsRejected() {
      Crafted c = new Crafted();
      c.code(0, ch -> ch.newObjectArray(0, 2));
      c.code(1, ch -> ch.select(0, "[Ljava/lang/Object;").putElement(2, 0));
      assertTrue(rejected(c).getMessage().contains("length 2"));
    }

    @Test
    void aBoxValueOutsideItsTypeIsRejected() {
      Crafted c = new Crafted();
      c.code(0, ch -> ch.storeCachedBox(0, "java/lang/Character", 'C', Integer.MIN_VALUE));
      assertTrue(rejected(c).getMessage().contains("outside its type's range"));
    }

    @Test
    void aClusterLoopWorksOnlyOnThisSnapshotsAllocationsWithEnoughValues() throws IOException {
      String owner = "org/codese/TrustInvariantsTest$Box";
      for (int variant = 0; variant < 3; variant++) {
        Crafted c = new Crafted().slots(2);
        int box = c.type(BOX_ENTRY);
        int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
        int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
        int values =
            c.constant(new Constant.PrimArray(variant == 1 ? new int[] {7} : new int[] {7, 8}));
        boolean foreign = variant == 0;
        c.code(
            0,
            ch -> {
              ch.alloc(0, alloc);
              if (foreign) {
                ch.newString(1, "not a box");
              } else {
                ch.alloc(1, alloc);
              }
            });
        c.code(1, box, ch -> ch.clusterInt(ids, values, owner, "value"));
        if (variant == 2) {
          assertEquals(7, ((Box) Codese.fromBytes(c.bytes())).value);
        } else {
          String m = rejected(c).getMessage();
          assertTrue(m.contains(foreign ? "slot 1" : "column constant"), m);
        }
      }
    }

    @Test
    void aBoxLoopNeedsAValueOfItsKindPerId() throws IOException {
      Object[] data = {new int[] {7}, new long[] {7, 8}, new int[] {7, 8}};
      for (int variant = 0; variant < data.length; variant++) {
        Crafted c = new Crafted().slots(2);
        int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
        int values = c.constant(new Constant.PrimArray(data[variant]));
        c.code(
            0,
            ch -> ch.boxLoop(ids, values, "[I", Opcodes.IALOAD, "java/lang/Integer", 'I', false));
        if (variant == 2) {
          Object root = Codese.fromBytes(c.bytes());
          assertEquals(7, root);
          assertNotSame(Integer.valueOf(7), root, "a new box, as the JDK's streams make");
        } else {
          String m = rejected(c).getMessage();
          assertTrue(m.contains("box loop's values (constant " + values + ")"), m);
        }
      }
    }

    @Test
    void aBoxLoopFillsEachOfItsSlotsOnce() {
      for (boolean secondIsLoop : new boolean[] {true, false}) {
        Crafted c = new Crafted();
        int ids = c.constant(new Constant.PrimArray(new int[] {0}));
        int values = c.constant(new Constant.PrimArray(new int[] {3}));
        c.code(
            0,
            ch -> {
              ch.boxLoop(ids, values, "[I", Opcodes.IALOAD, "java/lang/Integer", 'I', false);
              if (secondIsLoop) {
                ch.boxLoop(ids, values, "[I", Opcodes.IALOAD, "java/lang/Integer", 'I', false);
              } else {
                ch.newString(0, "again");
              }
            });
        String m = rejected(c).getMessage();
        assertTrue(m.contains("fills table slot 0 a second time"), m);
      }
    }

    @Test
    void aBoxLoopMustBoxWhatItLoadsWithItsKindsOwnCall() {
      // another box's call; the wrong array load; a narrower array than the box holds
      String[][] shapes = {
        {"[I", "java/lang/Long", "I"},
        {"[I", "java/lang/Integer", "I"},
        {"[B", "java/lang/Integer", "I"},
        {"[S", "java/lang/Integer", "I"}
      };
      int[] loads = {Opcodes.IALOAD, Opcodes.BALOAD, Opcodes.BALOAD, Opcodes.SALOAD};
      for (int i = 0; i < shapes.length; i++) {
        String[] shape = shapes[i];
        int load = loads[i];
        for (boolean cached : new boolean[] {false, true}) {
          Crafted c = new Crafted();
          int ids = c.constant(new Constant.PrimArray(new int[] {0}));
          int values = c.constant(new Constant.PrimArray(new int[] {1}));
          c.code(
              0,
              ch -> ch.boxLoop(ids, values, shape[0], load, shape[1], shape[2].charAt(0), cached));
          String m = rejected(c).getMessage();
          assertTrue(m.contains("not a statement of the restore grammar"), m);
        }
      }
    }

    @Test
    void aStringLoopNeedsATextPerId() throws IOException {
      for (int texts = 1; texts <= 2; texts++) {
        Crafted c = new Crafted().slots(2);
        int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
        int strings =
            c.constant(
                new Constant.Texts(texts == 1 ? new String[] {"a"} : new String[] {"a", "b"}));
        c.code(0, ch -> ch.stringLoop(ids, strings));
        if (texts == 1) {
          assertTrue(rejected(c).getMessage().contains("texts"));
        } else {
          assertEquals("a", Codese.fromBytes(c.bytes()));
        }
      }
    }

    @Test
    void aNegativeElementIndexIsRejected() {
      Crafted c = new Crafted();
      c.code(0, ch -> ch.newObjectArray(0, 2));
      c.code(1, ch -> ch.select(0, "[Ljava/lang/Object;").putElement(-1, 0));
      assertTrue(rejected(c).getMessage().contains("element -1"));
    }

    @Test
    void hookDataOfTheWrongShapeIsRejectedOrCorrupt() throws IOException {
      Crafted blocks = new Crafted();
      int box = blocks.type(BOX_ENTRY);
      int alloc = blocks.constant(new Constant.Allocator(box, Mode.SERIAL));
      int hook =
          blocks.constant(
              new Constant.Hook(
                  HookKind.SLOT, box, 0, new Tape(new byte[2], new int[] {Tape.BLOCK, 100})));
      int steps = program(blocks, Grammar.STEP_HOOK, hook);
      blocks.code(0, ch -> ch.alloc(0, alloc));
      blocks.code(2, ch -> ch.runSteps(steps));
      assertThrows(CorruptSnapshotException.class, () -> Codese.load(blocks.bytes()));

      Crafted fields = new Crafted();
      box = fields.type(BOX_ENTRY);
      int alloc2 = fields.constant(new Constant.Allocator(box, Mode.SERIAL));
      int hook2 =
          fields.constant(
              new Constant.Hook(
                  HookKind.SLOT,
                  box,
                  0,
                  new Tape(new byte[4], new int[] {Tape.FIELDS, 1, Tape.OBJECT, 0})));
      int steps2 = program(fields, Grammar.STEP_HOOK, hook2);
      fields.code(0, ch -> ch.alloc(0, alloc2));
      fields.code(2, ch -> ch.runSteps(steps2));
      try (Snapshot s = Codese.load(fields.bytes())) {
        assertThrows(java.io.StreamCorruptedException.class, s::restore);
      }
    }

    @Test
    void aFieldOfAnotherClassIsRejected() {
      Crafted c = new Crafted();
      int box = c.type(BOX_ENTRY);
      int global = c.type(Global.class.getName());
      int allocBox = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      int x = c.constant(new Constant.Setter(global, "x", "I"));
      c.code(0, ch -> ch.alloc(0, allocBox));
      c.code(1, ch -> ch.select(0, null).setInt(x, 3));
      assertTrue(rejected(c).getMessage().contains("of an object of"));
    }

    @Test
    void aRecordComponentOfTheWrongTypeIsAnInvalidObjectException() throws IOException {
      Crafted c = new Crafted().slots(2);
      int pair =
          c.type(
              new ClassEntry(
                  Pair.class.getName(),
                  List.of(
                      new FieldEntry("n", "I", true),
                      new FieldEntry("box", "Lorg/codese/TrustInvariantsTest$Box;", true)),
                  0,
                  false));
      Tape tape = new Tape(new byte[] {0, 0, 0, 3}, new int[] {Tape.FIELDS, 1, Tape.OBJECT, 1});
      int hook = c.constant(new Constant.Hook(HookKind.RECORD, pair, 0, tape));
      int steps = program(c, Grammar.STEP_HOOK, hook);
      c.code(0, ch -> ch.newString(1, "not a box"));
      c.code(2, ch -> ch.runSteps(steps));
      try (Snapshot s = Codese.load(c.bytes())) {
        java.io.InvalidObjectException e =
            assertThrows(java.io.InvalidObjectException.class, s::restore);
        assertTrue(e.getMessage().contains("record component box"), e.getMessage());
      }
    }

    @Test
    void aValueOfTheWrongTypeIsRejected() {
      Crafted c = new Crafted().slots(2);
      int resolves = c.type(ResolvesToGlobal.class.getName());
      int holder =
          c.type(
              new ClassEntry(
                  Holder.class.getName(),
                  List.of(new FieldEntry("box", "Lorg/codese/TrustInvariantsTest$Box;", true)),
                  1L,
                  true));
      int allocHolder = c.constant(new Constant.Allocator(holder, Mode.SERIAL));
      int allocOther = c.constant(new Constant.Allocator(resolves, Mode.SERIAL));
      int box =
          c.constant(new Constant.Setter(holder, "box", "Lorg/codese/TrustInvariantsTest$Box;"));
      c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocOther));
      c.code(1, ch -> ch.select(0, null).setRef(box, 1));
      assertTrue(rejected(c).getMessage().contains("belongs"));
    }
  }

  /** A record with a reference and a primitive component. */
  record Pair(Box box, int n) implements Serializable {}

  /** Holds a {@link Box}. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Box box;
  }
}
